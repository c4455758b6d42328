#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

/// The document file since format 3: a header and two slots, the older one written in place.
@Suite("The two-slot document file")
struct TwoSlotFileTests {
    static let document = StoreDocument(key: "counter", default: PersistedCounter())

    static func envelope(_ text: String) -> Data { Data(#"{"formatVersion":2,"value":"\#(text)"}"#.utf8) }

    /// Runs `body` with a `FileStorage` in a temporary folder where the counter was saved once
    /// (a two-slot file, made the rename way), the counter's file, and the folder.
    static func withSavedCounter(
        count: Int = 1, _ body: (FileStorage, URL, URL) throws -> Void
    ) throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: count), to: Self.document)
            try body(storage, try storage.fileURL(forKey: "counter"), folder)
        }
    }

    // MARK: The format

    @Test func theChecksumIsCRC32C() {
        var crc = CRC32C()
        Array("123456789".utf8).withUnsafeBufferPointer { crc.update($0) }
        #expect(crc.value == 0xE306_9283)
    }

    @Test(arguments: [0, 1, 4_000, SlotFile.capacity(ofSlot: 4_096)])
    func aFileRoundTripsAndTheArticlesReaderAgrees(length: Int) throws {
        let envelope = Data(repeating: UInt8(ascii: "x"), count: length)
        let file = try #require(SlotFile.file(envelope: envelope, sequence: 7, slotSize: 4_096))
        #expect(file.count == 4_096 + 2 * 4_096)
        let read = try SlotFile.read(file)
        #expect(read.slotSize == 4_096)
        #expect(read.current == SlotFile.Slot(index: 0, sequence: 7, envelope: envelope))
        #expect(read.older == 1)
        // The reader written from the article, apart from the library's.
        #expect(DocumentFileText.envelope(of: file) == envelope)
        #expect(DocumentFileText.slots(of: file)?.map(\.sequence) == [7])
    }

    @Test func anEnvelopeLongerThanTheSlotDoesNotFitAndTheSlotDoubles() {
        let capacity = SlotFile.capacity(ofSlot: 4_096)
        #expect(SlotFile.slot(0, slotSize: 4_096, sequence: 1, envelope: Data(count: capacity + 1)) == nil)
        #expect(SlotFile.slotSize(fitting: capacity) == 4_096)
        #expect(SlotFile.slotSize(fitting: capacity + 1) == 8_192)
        #expect(SlotFile.slotSize(fitting: 100, from: 16_384) == 16_384, "doubled from where it starts")
        #expect(SlotFile.slotSize(fitting: 300_000) == 524_288)
        #expect(SlotFile.slotSize(fitting: Int.max) == nil)
    }

    /// A version of the library that reads only plain documents decodes the whole file as one:
    /// it finds format 3, newer than its own, and leaves the file in place.
    @Test func theWholeFileIsOneJSONDocumentOfANewerFormat() throws {
        var file = try #require(SlotFile.file(envelope: Self.envelope("a"), sequence: 1, slotSize: 4_096))
        let second = try #require(SlotFile.slot(1, slotSize: 4_096, sequence: 2, envelope: Self.envelope("b")))
        file.replaceSubrange(8_192..<12_288, with: second)
        let object = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        #expect(object["formatVersion"] as? Int == 3)
        #expect((object["slots"] as? [Any])?.count == 2)
        let header = try JSONDecoder().decode(DocumentHeader.self, from: file)
        #expect(header.formatVersion == 3 && header.formatVersion > DocumentFormat.current)
    }

    /// Every sector of the slot being written, torn — new bytes, old bytes or zeros — leaves the
    /// version before or the new one, never a mix; both slots torn is damage, never a value.
    @Test func aTornSlotIsNeverReadAsAValue() throws {
        let first = try #require(
            SlotFile.file(envelope: Self.envelope(String(repeating: "a", count: 1_500)), sequence: 1, slotSize: 4_096))
        let newSlot = try #require(
            SlotFile.slot(1, slotSize: 4_096, sequence: 2, envelope: Self.envelope(String(repeating: "b", count: 2_500))))
        let oldSlot = [UInt8](first[8_192..<12_288])
        let payloadEnd = SlotFile.slotPrefixSize + Self.envelope(String(repeating: "b", count: 2_500)).count + 1
        var outcomes: Set<UInt64> = []
        for sector in 0..<8 {
            for filler in ["zero", "old"] {
                var slot = newSlot
                for offset in (sector * 512)..<((sector + 1) * 512) { slot[offset] = filler == "zero" ? 0 : oldSlot[offset] }
                var file = first
                file.replaceSubrange(8_192..<12_288, with: slot)
                let current = try #require(try SlotFile.read(file).current, "sector \(sector) \(filler)")
                outcomes.insert(current.sequence)
                if current.sequence == 2 {
                    #expect(slot[..<payloadEnd] == newSlot[..<payloadEnd], "only a whole envelope reads as the new version")
                } else {
                    #expect(current.envelope == Self.envelope(String(repeating: "a", count: 1_500)))
                }
            }
        }
        // Sectors past the envelope hold only padding: torn, the new version is still whole.
        #expect(outcomes == [1, 2])
        var bothTorn = first
        bothTorn.replaceSubrange(4_096..<4_608, with: [UInt8](repeating: 0, count: 512))
        #expect(try SlotFile.read(bothTorn).current == nil)
        #expect(DocumentFileText.envelope(of: bothTorn).isEmpty)
    }

    // MARK: Through FileStorage

    /// A write in place goes to the older slot: the current one, and the file (no rename), stay.
    @Test func aWriteGoesToTheOlderSlotAndTheCurrentOneIsNeverTouched() throws {
        try Self.withSavedCounter { storage, file, _ in
            let inode = FileStamp.of(file)
            for count in 2...5 {
                let before = try Data(contentsOf: file)
                let current = try #require(try SlotFile.read(before).current)
                try storage.update(Self.document) { $0.count = count }
                let after = try Data(contentsOf: file)
                let start = 4_096 + current.index * 4_096
                #expect(after[start..<(start + 4_096)] == before[start..<(start + 4_096)], "the current slot is untouched")
                #expect(after.prefix(4_096) == before.prefix(4_096), "the header is untouched")
                let next = try #require(try SlotFile.read(after).current)
                #expect(next.index == 1 - current.index && next.sequence == current.sequence + 1)
                #expect(FileStamp.of(file) == inode, "written in place, not renamed")
                #expect(try storage.load(Self.document).value.count == count)
            }
        }
    }

    /// A read without the lock that copied one slot before a write went into it, and met the
    /// next write in the other, finds one whole slot holding a version already superseded twice:
    /// it reads again and takes the newer version. With the file left so, it takes the whole slot
    /// after a bounded number of reads.
    @Test(arguments: [true, false])
    func aReadThatFindsOneSlotWholeReadsAgain(aWriteFinishesMeanwhile: Bool) throws {
        try Self.withSavedCounter { storage, file, _ in
            try storage.update(Self.document) { $0.count = 2 }
            var straddled = try Data(contentsOf: file)  // slots: 1 and 2
            for count in 3...4 { try storage.update(Self.document) { $0.count = count } }
            let finished = try Data(contentsOf: file)  // slots: 3 and 4
            // The slot of version 2 torn, as a read meets it while version 4 is written into it:
            // only version 1 reads whole.
            let newer = try #require(try SlotFile.read(straddled).current)
            #expect(newer.sequence >= 2)
            let start = 4_096 + newer.index * 4_096 + SlotFile.slotPrefixSize
            straddled[start] ^= 0xFF
            #expect(try SlotFile.read(straddled).slots.count == 1)
            try straddled.write(to: file)
            let opens = Locked(0)
            let faults = FileFaults([:]) { call in
                guard call == .openDocument else { return }
                let count = opens.withLock { count -> Int in
                    count += 1
                    return count
                }
                // The write that was under way finishes between the first read and the next.
                if aWriteFinishesMeanwhile, count == 2 { try? finished.write(to: file) }
            }
            let read = try FileFaults.$current.withValue(faults) { try storage.load(Self.document) }
            #expect(read.value.count == (aWriteFinishesMeanwhile ? 4 : 1))
            let reads = opens.withLock { $0 }
            #expect(reads == (aWriteFinishesMeanwhile ? 2 : FileStorage.readsOfAFileWithOneWholeSlot))
        }
    }

    @Test func aDocumentThatOutgrowsItsSlotIsWrittenAnewWithDoubledSlots() throws {
        try Self.withSavedCounter { storage, file, _ in
            let inode = FileStamp.of(file)
            let long = String(repeating: "l", count: 5_000)
            try storage.update(Self.document) { $0.label = long }
            let grown = try Data(contentsOf: file)
            let read = try SlotFile.read(grown)
            #expect(read.slotSize == 8_192 && grown.count == 4_096 + 2 * 8_192)
            #expect(read.current?.sequence == 3, "the sequence goes on in the new file (2 was the first save's)")
            #expect(FileStamp.of(file) != inode, "a new file, renamed into place")
            #expect(try storage.load(Self.document).value.label == long)
            // A shorter value later keeps the larger slots, written in place.
            try storage.update(Self.document) { $0.label = "short" }
            #expect(try SlotFile.read(Data(contentsOf: file)).slotSize == 8_192)
            #expect(try storage.load(Self.document).value.label == "short")
        }
    }

    /// A document with a second name (a backup tool's hard link) is replaced, never written in
    /// place: the other name keeps its bytes.
    @Test func aDocumentWithAnotherNameIsNotWrittenInPlace() throws {
        try Self.withSavedCounter { storage, file, folder in
            let snapshot = folder.appending(path: "snapshot-of-counter")
            #expect(link(file.path(percentEncoded: false), snapshot.path(percentEncoded: false)) == 0)
            let before = try Data(contentsOf: snapshot)
            try storage.update(Self.document) { $0.count = 2 }
            #expect(try Data(contentsOf: snapshot) == before, "the other name's bytes are unchanged")
            #expect(FileStamp.of(file) != FileStamp.of(snapshot))
            #expect(try storage.load(Self.document).value.count == 2)
        }
    }

    @Test func aPlainDocumentIsReadAsItIsAndConvertedAtItsFirstWrite() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try writePlainCounter(4, in: storage)
            let file = try storage.fileURL(forKey: "counter")
            let plain = try Data(contentsOf: file)
            #expect(try storage.load(Self.document).value.count == 4)
            #expect(try Data(contentsOf: file) == plain, "a read leaves it as it is")
            try storage.update(Self.document) { $0.count += 1 }
            let converted = try Data(contentsOf: file)
            #expect(DocumentFileText.isSlotFile(converted))
            // The new version as sequence 2, and slot 1 filled with the same envelope as 1 once
            // the file's name was durable.
            let slots = try SlotFile.read(converted)
            #expect(slots.current?.sequence == 2 && slots.current?.index == 0)
            #expect(slots.slots.map(\.sequence) == [2, 1] && slots.slots[0].envelope == slots.slots[1].envelope)
            #expect(try storage.load(Self.document).value.count == 5)
        }
    }

    @Test func aFileWithNeitherSlotWholeIsDamagedAndKeptAside() throws {
        try Self.withSavedCounter(count: 3) { storage, file, folder in
            var bytes = try Data(contentsOf: file)
            bytes.replaceSubrange(4_096..<4_100, with: Data("XXXX".utf8))  // slot 0
            bytes.replaceSubrange(8_192..<8_196, with: Data("XXXX".utf8))  // slot 1
            try bytes.write(to: file)
            let loaded = try storage.load(Self.document)
            #expect(loaded.value == PersistedCounter(), "never a value from a torn slot")
            guard case .corrupted(_, let kept, let reason)? = loaded.recovery else {
                Issue.record("reported as \(String(describing: loaded.recovery))")
                return
            }
            #expect(reason.contains("neither of its two copies is whole"))
            #expect(try Data(contentsOf: kept) == bytes, "kept aside as it was")
        }
    }

    /// The rename way's last step, flushing the folder, failed: the new version is in place, and
    /// the write says so — never that it was saved, nor that nothing changed.
    @Test func aFailedFlushOfTheFolderIsReportedAsNotDurable() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try writePlainCounter(1, in: storage)
            let faults = FileFaults([.syncFolder: [EIO]])
            #expect {
                try FileFaults.$current.withValue(faults) { try storage.update(Self.document) { $0.count = 2 } }
            } throws: { error in
                guard case StorageError.notDurable(_, let reason) = error else { return false }
                return reason.contains(String(cString: strerror(EIO))) && "\(error)".contains("A power cut may bring back")
            }
            #expect(faults.isUsedUp)
            #expect(try storage.load(Self.document).value.count == 2, "the new version is in place")
        }
    }

    /// A store whose write took effect but was not flushed holds the new state, as the disk
    /// does: the update is done (it returns) and the doubt is reported as an issue.
    @Test func aStoreWhoseWriteWasNotFlushedHoldsWhatTheDiskHolds() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try writePlainCounter(1, in: storage)
            let issues = Locked<[StoreIssue]>([])
            let store = PersistentStoreCore(
                key: "counter", default: PersistedCounter(), storage: storage, channel: .heldCounter,
                center: NotificationCenter(), watching: .off, reportIssue: { issue in issues.withLock { $0.append(issue) } })
            #expect(store.state.count == 1)
            try FileFaults.$current.withValue(FileFaults([.syncFolder: [EIO]])) {
                try store.update { $0.count = 2 }
            }
            #expect(store.state.count == 2, "memory follows the disk")
            #expect(try storage.load(Self.document).value.count == 2)
            let reported = issues.withLock { $0 }
            #expect(reported.count == 1)
            guard case .storageRecovered(.notDurable)? = reported.first else {
                Issue.record("reported \(reported)")
                return
            }
        }
    }

    /// A file whose slot 1 was never filled — its writer killed between the rename and the end
    /// of its flushes, or its folder's flush failed — may have a name a power cut undoes, and a
    /// flush of the folder after a failed one may persist nothing: the next write makes the file
    /// again the rename way. A file with both slots whole is written in place, with the file's
    /// flush alone.
    @Test func aFileWithOneWholeSlotIsWrittenTheRenameWay() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            let envelope = try DocumentCoding.encode(PersistedCounter(count: 1), key: "counter", store: "PersistedCounter")
            try #require(SlotFile.file(envelope: envelope, sequence: 2, slotSize: 4_096)).write(to: file)
            let before = FileStamp.of(file)

            let flushed = FileFaults([.syncFolder: [0]])
            try FileFaults.$current.withValue(flushed) { try storage.update(Self.document) { $0.count = 2 } }
            #expect(flushed.isUsedUp, "the folder was flushed")
            #expect(FileStamp.of(file) != before, "a new file")
            #expect(try SlotFile.read(Data(contentsOf: file)).slots.count == 2)
            let renamed = FileStamp.of(file)
            let unflushed = FileFaults([.syncFolder: [0]])
            try FileFaults.$current.withValue(unflushed) { try storage.update(Self.document) { $0.count = 3 } }
            #expect(!unflushed.isUsedUp, "both slots whole: the file's flush alone")
            #expect(FileStamp.of(file) == renamed, "in place")
            #expect(try storage.load(Self.document).value.count == 3)
        }
    }

    /// A polled watch tells two versions written in place apart by their sequence, even when the
    /// file's size and times are the same.
    @Test func twoVersionsWrittenInPlaceHaveDifferentIdentities() throws {
        try Self.withSavedCounter { storage, file, _ in
            let path = file.path(percentEncoded: false)
            let before = try #require(FileIdentity.of(path))
            try storage.update(Self.document) { $0.count = 2 }
            // The same times as before, as a coarse clock would give.
            var times = [
                timespec(tv_sec: Int(before.modified / 1_000_000_000), tv_nsec: Int(before.modified % 1_000_000_000)),
                timespec(tv_sec: Int(before.modified / 1_000_000_000), tv_nsec: Int(before.modified % 1_000_000_000)),
            ]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            let after = try #require(FileIdentity.of(path))
            #expect(after.inode == before.inode && after.size == before.size && after.modified == before.modified)
            #expect(before.sequence == 2 && after.sequence == 3)
            #expect(after != before)
        }
    }

    /// `reset` and `export` find the two-slot file to be the library's own.
    @Test func aTwoSlotFileIsProvenTheLibrarysOwn() throws {
        try Self.withSavedCounter { storage, file, _ in
            let descriptor = open(file.path(percentEncoded: false), O_RDONLY)
            defer { close(descriptor) }
            #expect(DocumentFile.envelopeProblem(ofOpen: descriptor) == nil)
            #expect(DocumentFile.isInLibraryFormat(file))
            // A file that only starts as one is not.
            try Data(SlotFile.signature + Array("0000004096\",\"slots\":[".utf8)).write(to: file)
            let other = open(file.path(percentEncoded: false), O_RDONLY)
            defer { close(other) }
            #expect(DocumentFile.envelopeProblem(ofOpen: other) != nil)
        }
    }
}
