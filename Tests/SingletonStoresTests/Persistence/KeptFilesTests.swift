import Foundation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A storage keeps a document's lock file and the document open between its transactions of the
/// key, checks them against their paths under the lock at each use, and closes them with its last
/// copy; the process keeps a bounded number. One test at a time: a fork, as one test plays it,
/// is the whole process's.
@Suite("FileStorage keeps a document's files open between its writes", .serialized)
struct KeptFilesTests {
    static let counter = StoreDocument(key: "counter", default: PersistedCounter())

    /// A storage of `folder` whose kept files count against a budget of its own (the process's
    /// is shared with every other test running).
    static func storage(_ folder: URL, capacity: Int = 16) -> FileStorage {
        var storage = FileStorage(folder: folder, reportNotice: { _ in })
        storage.kept = KeptFiles(budget: KeptFiles.Budget(capacity: capacity))
        return storage
    }

    /// A storage of `folder` that wrote the counter in place once, so that it keeps the document
    /// open for writing; and the document's path.
    static func storageWritingInPlace(_ folder: URL) throws -> (storage: FileStorage, file: String) {
        let storage = Self.storage(folder)
        try storage.save(PersistedCounter(count: 1), to: Self.counter)
        try storage.update(Self.counter) { $0.count += 1 }
        return (storage, try storage.fileURL(forKey: "counter").path(percentEncoded: false))
    }

    /// The calls that tests can make fail, in the order `body` made them.
    static func calls(_ body: () throws -> Void) throws -> [FileFaults.Call] {
        let seen = Recorder<FileFaults.Call>()
        try FileFaults.$current.withValue(FileFaults([:]) { seen.append($0) }) { try body() }
        return seen.values
    }

    @Test func theNextWriteOpensNeitherTheLockFileNorTheDocumentToReadIt() throws {
        try withTemporaryFolder { folder in
            let storage = Self.storage(folder)
            // A new file, made the rename way: the lock file is kept open, the document (the file
            // that was replaced) is not.
            let save = try Self.calls { try storage.save(PersistedCounter(count: 1), to: Self.counter) }
            #expect(save.contains(.openLock), "\(save)")
            let first = try Self.calls { try storage.update(Self.counter) { $0.count += 1 } }
            #expect(!first.contains(.openLock) && first.contains(.openDocument), "\(first)")
            // That write opened the document for writing, and the descriptor is kept: the next
            // one opens nothing. It locks the document, looks at it, reads it, writes the older
            // slot and flushes it: nothing else a test can make fail.
            #expect(first.contains(.openForWriting), "\(first)")
            let next = try Self.calls { try storage.update(Self.counter) { $0.count += 1 } }
            #expect(next == [.flock, .fstat, .read, .write, .fsync], "\(next)")
            #expect(storage.kept.budget.kept == 2)
            #expect(try storage.load(Self.counter).value.count == 3)
            #expect(try FileStorage(folder: folder, reportNotice: { _ in }).load(Self.counter).value.count == 3)
        }
    }

    /// Another process that sets the document aside moves it: the kept descriptor's file keeps
    /// its one name, elsewhere. The mark the mover leaves in it sends the next write to the path.
    @Test func aDocumentSetAsideByAnotherWriterIsNotWrittenThroughTheKeptDescriptor() throws {
        try withTemporaryFolder { folder in
            let (storage, file) = try Self.storageWritingInPlace(folder)
            try storage.update(Self.counter) { $0.count += 1 }  // through the kept descriptor
            // Another version of the app reads the store's document as a text: it can't decode
            // it, so it sets it aside and writes its own.
            let other = FileStorage(folder: folder, reportNotice: { _ in })
            let text = StoreDocument(key: "counter", default: "theirs", identity: "PersistedCounter")
            let commit = try other.update(text) { $0 = "written by the other app" }
            let kept = try #require(commit.recovery?.keptFile)
            let keptBytes = try Data(contentsOf: kept)
            #expect(SlotFile.isMarkedMoved(keptBytes))
            // Ours reads what is at the path now (not a counter: it sets it aside in turn), and
            // the file set aside keeps its bytes.
            _ = try? storage.update(Self.counter) { $0.count += 1 }
            #expect(try Data(contentsOf: kept) == keptBytes)
            #expect(try FileStorage(folder: folder, reportNotice: { _ in }).load(Self.counter).value.count != 4)
            #expect(FileManager.default.fileExists(atPath: file))
        }
    }

    /// A document whose mode was loosened, or that got another name, is written through its path
    /// (which narrows the mode again, or writes the rename way), never through the kept descriptor.
    @Test func aKeptDescriptorIsWrittenThroughOnlyWhileItsFileIsAsItWasKept() throws {
        try withTemporaryFolder { folder in
            let (storage, file) = try Self.storageWritingInPlace(folder)
            try #require(chmod(file, 0o644) == 0)
            let loosened = try Self.calls { try storage.update(Self.counter) { $0.count += 1 } }
            #expect(loosened.contains(.openForWriting), "\(loosened)")
            var info = stat()
            try #require(stat(file, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
            let next = try Self.calls { try storage.update(Self.counter) { $0.count += 1 } }
            #expect(next == [.flock, .fstat, .read, .write, .fsync], "\(next)")
            #expect(try storage.load(Self.counter).value.count == 4)
        }
    }

    /// A document cut short by another program between two writes is no longer a whole two-slot
    /// file: the write does not go through the kept descriptor, and the full way finds the
    /// damage, keeps the file aside and says so, as for any damaged document.
    @Test func aDocumentCutShortBetweenWritesIsNotWrittenThroughTheKeptDescriptor() throws {
        try withTemporaryFolder { folder in
            let (storage, file) = try Self.storageWritingInPlace(folder)
            try #require(truncate(file, 5_000) == 0)
            let cut = try Data(contentsOf: URL(filePath: file))
            let update = try storage.update(Self.counter) { $0.count += 1 }
            let kept = try #require(update.recovery?.keptFile)
            #expect(try Data(contentsOf: kept) == cut)
            #expect(update.value.count == PersistedCounter().count + 1)
            #expect(try FileStorage(folder: folder, reportNotice: { _ in }).load(Self.counter).value == update.value)
        }
    }

    /// While another descriptor holds the document's lock (another process writing), the kept
    /// descriptor is not written through: a transaction that must not wait gives up, and one
    /// that waits gets its turn once the lock is let go.
    @Test func aKeptDescriptorWaitsForTheDocumentsLock() throws {
        try withTemporaryFolder { folder in
            let (storage, file) = try Self.storageWritingInPlace(folder)
            let holder = open(file, O_RDONLY)
            try #require(holder >= 0)
            try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
            #expect(try storage.updateIfAvailable(Self.counter, { $0.count += 1 }) == nil)
            #expect(flock(holder, LOCK_UN) == 0 && close(holder) == 0)
            try storage.update(Self.counter) { $0.count += 1 }
            #expect(try storage.load(Self.counter).value.count == 3)
        }
    }

    @Test func aDocumentReplacedByAnotherWriterIsReadAnew() throws {
        try withTemporaryFolder { folder in
            let storage = Self.storage(folder)
            try storage.save(PersistedCounter(count: 1), to: Self.counter)
            try storage.update(Self.counter) { $0.count += 1 }  // keeps the document open
            // Another process puts a document of the earlier, plain format in its place.
            let file = try storage.fileURL(forKey: "counter")
            let plain = try DocumentCoding.encode(PersistedCounter(count: 50), key: "counter", store: "PersistedCounter")
            let temporary = folder.appending(path: "elsewhere.tmp")
            try plain.write(to: temporary)
            try #require(rename(temporary.path(percentEncoded: false), file.path(percentEncoded: false)) == 0)
            // A transaction that writes nothing decides on what the path names now; so does one
            // that writes.
            var seen: Int?
            try storage.update(Self.counter) { seen = $0.count }
            #expect(seen == 50)
            try storage.update(Self.counter) { $0.count += 1 }
            #expect(try storage.load(Self.counter).value.count == 51)
            #expect(try FileStorage(folder: folder, reportNotice: { _ in }).load(Self.counter).value.count == 51)
        }
    }

    @Test func aHardLinkMadeBetweenWritesKeepsItsBytes() throws {
        try withTemporaryFolder { folder in
            let storage = Self.storage(folder)
            try storage.save(PersistedCounter(count: 1), to: Self.counter)
            try storage.update(Self.counter) { $0.count += 1 }  // keeps the document open
            // A backup tool links the document under another name: the next write must not
            // change that name's bytes (it goes the rename way, to a new file).
            let file = try storage.fileURL(forKey: "counter").path(percentEncoded: false)
            let backup = folder.appending(path: "backup-copy").path(percentEncoded: false)
            try #require(link(file, backup) == 0)
            let linked = try Data(contentsOf: URL(filePath: backup))
            try storage.update(Self.counter) { $0.count += 1 }
            #expect(try Data(contentsOf: URL(filePath: backup)) == linked)
            #expect(try storage.load(Self.counter).value.count == 3)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "giving a file to another user needs root"))
    func aDocumentGivenToAnotherUserBetweenWritesIsNotRead() throws {
        try withTemporaryFolder { folder in
            let storage = Self.storage(folder)
            try storage.save(PersistedCounter(count: 1), to: Self.counter)
            try storage.update(Self.counter) { $0.count += 1 }  // keeps the document open
            let file = try storage.fileURL(forKey: "counter")
            let before = try Data(contentsOf: file)
            try #require(chown(file.path(percentEncoded: false), 65534, 65534) == 0)
            #expect {
                try storage.update(Self.counter) { $0.count += 1 }
            } throws: { error in
                guard case StorageError.readFailed(_, let reason) = error else { return false }
                return reason.contains(DocumentFile.otherOwnerMarker)
            }
            #expect(try Data(contentsOf: file) == before)
        }
    }

    @Test func afterAForkNothingKeptBeforeIsUsed() throws {
        try withTemporaryFolder { folder in
            let storage = Self.storage(folder)
            try storage.save(PersistedCounter(count: 1), to: Self.counter)
            try storage.update(Self.counter) { $0.count += 1 }  // keeps both
            #expect(storage.kept.budget.kept == 2)
            // In a child made by fork, the kept descriptors are copies of the parent's, sharing
            // its locks: they are closed, not used, and the files opened anew.
            KeptFiles.noteFork()
            let calls = try Self.calls { try storage.update(Self.counter) { $0.count += 1 } }
            #expect(calls.contains(.openLock) && calls.contains(.openDocument), "\(calls)")
            #expect(storage.kept.budget.kept == 2)  // the new ones, kept in their turn
            #expect(try storage.load(Self.counter).value.count == 3)
        }
    }

    #if os(Linux)
    @Test func aLockFileRemovedBetweenWritesIsMadeAgainAndTheNewOneKept() throws {
        try withTemporaryFolder { folder in
            var path = folder.resolvingSymlinksInPath().path(percentEncoded: false)
            while path.hasSuffix("/") { path.removeLast() }
            let storage = Self.storage(folder)
            try storage.save(PersistedCounter(count: 1), to: Self.counter)
            try storage.update(Self.counter) { $0.count += 1 }  // keeps the lock file open
            #expect(Self.openDescriptors(under: path).contains(path + "/counter.lock"))
            try FileManager.default.removeItem(atPath: path + "/counter.lock")
            // The kept descriptor is now on a file no other process can open: the next
            // transaction that takes the lock file finds the path empty, closes it, and locks (and
            // keeps) a new lock file. (A write through the kept document takes the document's
            // lock alone.)
            #expect(Self.openDescriptors(under: path).contains(path + "/counter.lock (deleted)"))
            try storage.update(Self.counter) { $0.count += 1 }
            #expect(try storage.load(Self.counter).value.count == 3)
            _ = storage.kept.take(try storage.fileURL(forKey: "counter").path(percentEncoded: false)).map { close($0.descriptor) }
            try storage.update(Self.counter) { $0.count += 1 }
            #expect(FileManager.default.fileExists(atPath: path + "/counter.lock"))
            let open = Self.openDescriptors(under: path)
            #expect(open.contains(path + "/counter.lock") && !open.contains(path + "/counter.lock (deleted)"), "\(open)")
            #expect(try storage.load(Self.counter).value.count == 4)
        }
    }

    @Test func theFilesCloseWithTheStorageAndAreNeverMoreThanTheBudget() throws {
        try withTemporaryFolder { folder in
            var path = folder.resolvingSymlinksInPath().path(percentEncoded: false)
            while path.hasSuffix("/") { path.removeLast() }
            do {
                let storage = Self.storage(folder, capacity: 4)
                for key in ["first", "second", "third"] {
                    let document = StoreDocument(key: key, default: PersistedCounter())
                    try storage.save(PersistedCounter(count: 1), to: document)
                    try storage.update(document) { $0.count += 1 }
                    try storage.update(document) { $0.count += 1 }
                }
                // Two documents' lock files and documents; the third's are closed after each write.
                #expect(storage.kept.budget.kept == 4)
                #expect(Self.openDescriptors(under: path).count == 4, "\(Self.openDescriptors(under: path))")
            }
            #expect(Self.openDescriptors(under: path).isEmpty, "\(Self.openDescriptors(under: path))")
        }
    }

    /// The files under `folder` this process has open, by /proc/self/fd.
    static func openDescriptors(under folder: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { entry in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                target.hasPrefix(folder + "/")
            else { return nil }
            return target
        }
    }
    #endif
}
