import Foundation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

@Suite("What a process wrote, and its temporary names")
struct WrittenDocumentsTests {
    @Test func aDocumentChangedBehindTheStorageIsReadFromDisk() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count = 1 }
            // Another writer's document, of the same size as ours: other bytes, so it is decoded.
            let file = try storage.fileURL(forKey: "counter")
            let ours = try DocumentFileText.envelope(at: file)
            let theirs = try DocumentCoding.encode(PersistedCounter(count: 7), key: "counter", store: "PersistedCounter")
            #expect(theirs.count == ours.count)
            try theirs.write(to: file)

            let update = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) {
                $0.count += 1
            }
            #expect(update.value.count == 8)
            #expect(
                try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count == 8)
        }
    }

    @Test func anUnchangedValueIsNotRewrittenWhenTheBytesAreOurs() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count = 3 }
            let update = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { _ in }
            #expect(!update.didWrite)
            #expect(update.value == PersistedCounter(count: 3))
        }
    }

    @Test func onlyTheSameBytesOfTheSameTypeVersionAndStoreAreOwn() throws {
        let file = URL(filePath: "/nonexistent/memo-test.json")
        let value = PersistedCounter(count: 5)
        let bytes = try DocumentCoding.encode(value, key: "memo-test", valueVersion: 2)
        WrittenDocuments.remember(bytes, value: value, in: file, valueVersion: 2, identity: "A", isOwnEncoding: true)
        defer { WrittenDocuments.forget(file) }
        #expect(Self.areOwn(bytes, of: PersistedCounter.self, in: file, valueVersion: 2, identity: "A"))
        #expect(
            WrittenDocuments.remembered(bytes, of: PersistedCounter.self, in: file, valueVersion: 2, identity: "A")?.value
                == value)
        #expect(!Self.areOwn(bytes, of: PersistedCounter.self, in: file, valueVersion: nil, identity: "A"))
        #expect(!Self.areOwn(bytes, of: PersistedCounter.self, in: file, valueVersion: 2, identity: "B"))
        #expect(!Self.areOwn(bytes, of: Int.self, in: file, valueVersion: 2, identity: "A"))
        var other = bytes
        other[other.count - 2] ^= 1
        #expect(!Self.areOwn(other, of: PersistedCounter.self, in: file, valueVersion: 2, identity: "A"))
        #expect(
            WrittenDocuments.remembered(other, of: PersistedCounter.self, in: file, valueVersion: 2, identity: "A") == nil)
        // Decoded bytes are remembered with their value, but are not this process's encoding.
        WrittenDocuments.remember(other, value: value, in: file, valueVersion: 2, identity: "A", isOwnEncoding: false)
        #expect(!Self.areOwn(other, of: PersistedCounter.self, in: file, valueVersion: 2, identity: "A"))
        #expect(
            WrittenDocuments.remembered(other, of: PersistedCounter.self, in: file, valueVersion: 2, identity: "A")?.value
                == value)
    }

    /// Whether `bytes` are remembered as this process's own save of a `Value` in `file`.
    static func areOwn<Value: Sendable>(
        _ bytes: Data, of type: Value.Type, in file: URL, valueVersion: Int?, identity: String
    ) -> Bool {
        WrittenDocuments.remembered(bytes, of: type, in: file, valueVersion: valueVersion, identity: identity)?
            .isOwnEncoding ?? false
    }

    /// The bytes this process committed last are not decoded again: the next update's body gets
    /// the value committed. A value whose coding leaves a property out shows it: that property
    /// keeps its value in this process, and comes back as decoding sets it once another writer
    /// changed the document (or in another process).
    @Test func ownBytesAreNotDecodedAgain() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let document = StoreDocument(key: "lossy", default: LossyCoding())
            try storage.update(document) { $0.kept = 100 }  // the document is made
            try storage.update(document) { $0 = LossyCoding(kept: 1, leftOut: 5) }
            var seen: [LossyCoding] = []
            try storage.update(document) {
                seen.append($0); $0.kept += 1
            }
            #expect(seen == [LossyCoding(kept: 1, leftOut: 5)])
            #expect(try storage.load(document).value == LossyCoding(kept: 2, leftOut: 5))

            // Another writer's bytes (the same document written by hand) are decoded.
            let file = try storage.fileURL(forKey: "lossy")
            try DocumentCoding.encode(LossyCoding(kept: 9, leftOut: 5), key: "lossy", store: document.identity)
                .write(to: file)
            try storage.update(document) { seen.append($0) }
            #expect(seen.last == LossyCoding(kept: 9, leftOut: LossyCoding.decodedLeftOut))
        }
    }

    /// A value of a class type is decoded every time: a body could change the remembered
    /// instance itself.
    @Test func aValueOfAClassTypeIsDecodedEveryTime() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let document = StoreDocument(key: "boxed", default: LossyBox(kept: 0, leftOut: 0))
            try storage.update(document) { $0 = LossyBox(kept: 100, leftOut: 0) }  // the document is made
            try storage.update(document) { $0 = LossyBox(kept: 1, leftOut: 5) }
            var seen: [Int] = []
            try storage.update(document) { seen.append($0.inner.leftOut) }
            #expect(seen == [LossyCoding.decodedLeftOut])
        }
    }

    @Test func temporaryIdsAreFreshThirtyTwoHexDigits() {
        let ids = (0..<100).map { _ in TemporaryNames.next() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }

    /// A temporary name says which process wrote it and, when it held a lock file, that
    /// file's inode (16 lowercase hex digits); anything else of that shape is not one.
    @Test func temporaryNamesSayTheirWriterAndItsLock() {
        let id = "0123456789abcdef0123456789abcdef"
        func writer(_ name: String) -> TemporaryNames.Writer? { TemporaryNames.writer(ofTemporary: name, prefix: "counter~") }
        #expect(writer("counter~12-00000000000000ff-\(id).tmp") == .process(12, lockInode: 255))
        #expect(writer("counter~12-\(id).tmp") == .process(12, lockInode: nil))
        #expect(writer("counter~\(id).tmp") == .olderVersion)
        #expect(writer("counter~0-\(id).tmp") == .invalidProcess)
        #expect(writer("counter~x-00000000000000ff-\(id).tmp") == .invalidProcess)
        for name in [
            "counter~12-00000000000000FF-\(id).tmp", "counter~12-0000000000000ff-\(id).tmp",
            "counter~12-00000000000000ff-00000000000000ff-\(id).tmp", "counter~12-\(id.dropLast()).tmp",
            "counter~12-\(id).json", "counters~12-\(id).tmp",
        ] {
            #expect(writer(name) == nil, "\(name)")
        }
        // The name a writer of this version makes: written under a lock on the file, with its lock file.
        let made = "counter~" + TemporaryNames.writerPart(lockInode: 0xabc) + TemporaryNames.next() + ".tmp"
        #expect(writer(made) == .locked(lockInode: 0xabc))
        #expect(made.hasPrefix("counter~w-0000000000000abc-"))
        #expect(writer("counter~w-\(id).tmp") == .locked(lockInode: nil))
        #expect(writer("counter~w-00000000000000ff-\(id).tmp") == .locked(lockInode: 255))
        #expect(writer("counter~W-00000000000000ff-\(id).tmp") == .invalidProcess)
        #expect(TemporaryNames.isTemporaryName(made, forKey: "counter"))
        #expect(TemporaryNames.isTemporaryName("counter~\(id).tmp", forKey: "counter"))
        #expect(!TemporaryNames.isTemporaryName("counter~0-\(id).tmp", forKey: "counter"))
    }

    @Test func onlyTheKeysTemporaryFilesAreListed() throws {
        try withTemporaryFolder { folder in
            let names = [
                "counter~1-ab.tmp", "counter.json", "counter.lock", "counters~1-ab.tmp", "counter~x.json", "other~1.tmp",
            ]
            for name in names { try Data().write(to: folder.appending(path: name)) }
            #expect(TemporaryNames.candidates(in: folder, prefix: "counter~") == ["counter~1-ab.tmp"])
        }
    }
}

/// A value whose coding leaves `leftOut` out: decoding sets it to ``decodedLeftOut``.
struct LossyCoding: Codable, Sendable, Equatable {
    static let decodedLeftOut = -1
    var kept = 0
    var leftOut = 0

    init(kept: Int = 0, leftOut: Int = 0) {
        self.kept = kept
        self.leftOut = leftOut
    }

    enum CodingKeys: String, CodingKey { case kept }

    init(from decoder: any Decoder) throws {
        kept = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .kept)
        leftOut = Self.decodedLeftOut
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kept, forKey: .kept)
    }
}

/// ``LossyCoding`` as a class, coded as the value it holds.
final class LossyBox: Codable, Sendable {
    let inner: LossyCoding

    init(kept: Int, leftOut: Int) {
        inner = LossyCoding(kept: kept, leftOut: leftOut)
    }

    init(from decoder: any Decoder) throws {
        inner = try LossyCoding(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try inner.encode(to: encoder)
    }
}
