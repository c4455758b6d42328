#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// The system calls and listings one write costs.
///
/// Each storage keeps its files open within a budget of its own (``KeptFilesTests/storage(_:capacity:)``):
/// the process's is shared with every test running, and a write that finds it spent goes the
/// full way, which lists the folder.
@Suite("FileStorage: the work of one write")
struct FileStorageWriteCostTests {
    private static let document = StoreDocument(key: "counter", default: PersistedCounter())

    /// The temporary file of a writer that is gone: its process id is one that was just freed.
    private static func deadWritersTemporary(in folder: URL) throws -> URL {
        let gone = Process()
        gone.executableURL = URL(filePath: "/bin/sh")
        gone.arguments = ["-c", "exit 0"]
        try gone.run()
        gone.waitUntilExit()
        let file = folder.appending(path: "counter~\(gone.processIdentifier)-0123456789abcdef0123456789abcdef.tmp")
        try Data("{".utf8).write(to: file)
        return file
    }

    private static func exists(_ file: URL) -> Bool {
        FileManager.default.fileExists(atPath: file.path(percentEncoded: false))
    }

    /// One listing of the folder a write, which both removes the temporary files of writers
    /// that are gone and finds a running writer's (two listings cost a write five system calls).
    /// How many times an update lists the folder: once for a new file renamed into place and for
    /// an update that writes nothing (each removes the temporary files of killed writers), never
    /// for a write in place.
    @Test func aWriteListsTheFolderAtMostOnce() throws {
        try withTemporaryFolder { folder in
            let storage = KeptFilesTests.storage(folder)
            // A plain document of an earlier version: its next write is a new file.
            let file = try storage.fileURL(forKey: "counter")
            try DocumentCoding.encode(PersistedCounter(count: 1), key: "counter", store: "PersistedCounter").write(to: file)
            // Each transaction by a storage of its own, as processes would make them, so that
            // none goes through a document a storage kept open since its last write.
            func listings(changing changes: Bool) throws -> Int {
                let counted = FileFaults([.listFolder: [0, 0, 0]])
                let storage = KeptFilesTests.storage(folder)
                try FileFaults.$current.withValue(counted) {
                    try storage.update(Self.document) { if changes { $0.count += 1 } }
                }
                return 3 - counted.remaining(.listFolder)
            }
            #expect(try listings(changing: true) == 1, "the new file")
            #expect(DocumentFileText.isSlotFile(try Data(contentsOf: file)))
            // A write in place lists the folder only when it may have changed since the last
            // listing: with the folder's time a while back, once, then not at all.
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -10)], ofItemAtPath: folder.path(percentEncoded: false))
            #expect(try listings(changing: true) == 1, "in place, the folder changed since")
            #expect(try listings(changing: true) == 0, "in place, the folder unchanged")
            try Data().write(to: folder.appending(path: "counter~0123456789abcdef0123456789abcdef.tmp"))
            #expect(try listings(changing: true) == 1, "in place, a file added")
            #expect(try listings(changing: false) == 1, "nothing written")
            // A storage's write through the document it kept open lists nothing: the writers
            // that a listing looks for take the document's lock too.
            try storage.update(Self.document) { $0.count += 1 }
            try Data().write(to: folder.appending(path: "counter~1123456789abcdef0123456789abcdef.tmp"))
            let counted = FileFaults([.listFolder: [0]])
            try FileFaults.$current.withValue(counted) { try storage.update(Self.document) { $0.count += 1 } }
            #expect(counted.remaining(.listFolder) == 1, "through the kept document")
            #expect(try storage.load(Self.document).value.count == 7)
        }
    }

    @Test func anUpdateThatChangesNothingStillRemovesADeadWritersTemporaryFile() throws {
        try withTemporaryFolder { folder in
            let storage = KeptFilesTests.storage(folder)
            try storage.save(PersistedCounter(count: 1), to: Self.document)
            let dead = try Self.deadWritersTemporary(in: folder)
            let update = try storage.update(Self.document) { _ in }
            #expect(!update.didWrite)
            #expect(!Self.exists(dead))
        }
    }

    /// A killed writer's temporary file may be what filled the disk: a write that could not
    /// make its own removes it and tries once more, as when such files were removed first.
    @Test func aWriteThatFindsTheDiskFullRemovesADeadWritersTemporaryFileAndTriesOnceMore() throws {
        try withTemporaryFolder { folder in
            let storage = KeptFilesTests.storage(folder)
            try storage.save(PersistedCounter(count: 1), to: Self.document)
            let dead = try Self.deadWritersTemporary(in: folder)
            let full = FileFaults([.write: [ENOSPC]])
            let update = try FileFaults.$current.withValue(full) {
                try storage.update(Self.document) { $0.count += 1 }
            }
            #expect(full.isUsedUp)
            #expect(update.value.count == 2 && update.didWrite)
            #expect(!Self.exists(dead))

            // With nothing to remove, the full disk is reported and nothing changed: the write
            // through the kept document and the one through its path both find it full.
            let again = FileFaults([.write: [ENOSPC, ENOSPC]])
            let error = FileFaults.$current.withValue(again) { () -> StorageError? in
                do throws(StorageError) {
                    try storage.update(Self.document) { $0.count += 1 }
                    return nil
                } catch { return error }
            }
            guard case .writeFailed(_, let reason)? = error else {
                Issue.record("expected writeFailed, got \(String(describing: error))")
                return
            }
            #expect(reason == String(cString: strerror(ENOSPC)))
            #expect(again.isUsedUp)
            #expect(try storage.load(Self.document).value.count == 2)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            #expect(!left.contains { $0.hasSuffix(".tmp") }, "\(left)")
        }
    }

    #if os(Linux)
    /// The access time of the file at `url`, in nanoseconds.
    private static func accessTime(of url: URL) throws -> Int128 {
        var info = stat()
        try #require(stat(url.path(percentEncoded: false), &info) == 0)
        return Int128(info.st_atim.tv_sec) * 1_000_000_000 + Int128(info.st_atim.tv_nsec)
    }

    /// Sets the access time of the file at `url` a minute before its modification time: under
    /// `relatime` (Linux's default), its next read then updates it.
    private static func setAccessTimeBack(_ url: URL) throws {
        var info = stat()
        try #require(stat(url.path(percentEncoded: false), &info) == 0)
        // The second is UTIME_OMIT: the modification time stays as it is.
        var times = [timespec(tv_sec: info.st_mtim.tv_sec - 60, tv_nsec: 0), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
        try #require(utimensat(AT_FDCWD, url.path(percentEncoded: false), &times, 0) == 0)
    }

    /// Reading a document does not change its access time (`O_NOATIME`): the next write's
    /// folder sync then has no inode change of the file it replaces to record.
    @Test func readingADocumentLeavesItsAccessTimeAsItWas() throws {
        try withTemporaryFolder { folder in
            // A file beside it, read plainly, shows whether this file system records reads at
            // all (one mounted `noatime` does not; there is then nothing to see).
            let control = folder.appending(path: "control.txt")
            try Data("control".utf8).write(to: control)
            try Self.setAccessTimeBack(control)
            let untouched = try Self.accessTime(of: control)
            let handle = try FileHandle(forReadingFrom: control)
            _ = try handle.readToEnd()
            try handle.close()
            guard try Self.accessTime(of: control) != untouched else { return }

            let storage = KeptFilesTests.storage(folder)
            try storage.save(PersistedCounter(count: 1), to: Self.document)
            let file = try storage.fileURL(forKey: "counter")
            try Self.setAccessTimeBack(file)
            let before = try Self.accessTime(of: file)
            let update = try storage.update(Self.document) { _ in }
            #expect(!update.didWrite)
            #expect(try storage.load(Self.document).value.count == 1)
            #expect(try Self.accessTime(of: file) == before, "reading the document changed its access time")
        }
    }
    #endif
}
#endif
