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
/// An `errno` value with its name, for readable test arguments.
struct Errno: Sendable, CustomTestStringConvertible {
    var code: Int32
    var name: String
    var testDescription: String { name }

    /// Failures that may pass or that the user must fix, but that say nothing about the content.
    static let transient: [Errno] = [
        Errno(code: EMFILE, name: "EMFILE"), Errno(code: ENFILE, name: "ENFILE"), Errno(code: ENOMEM, name: "ENOMEM"),
        Errno(code: EAGAIN, name: "EAGAIN"), Errno(code: EACCES, name: "EACCES"), Errno(code: EPERM, name: "EPERM"),
        Errno(code: EIO, name: "EIO"), Errno(code: ENOSPC, name: "ENOSPC"), Errno(code: EROFS, name: "EROFS"),
    ]
}

/// Failures of system calls, injected through ``FileFaults``: none may move a good document.
@Suite("FileStorage: transient errors leave the files in place")
struct FileStorageTransientErrorTests {
    /// How the next write of the good document goes.
    enum WriteWay: String, CaseIterable, CustomTestStringConvertible {
        /// Into the older slot of the two-slot file the library wrote.
        case inPlace
        /// As a new file renamed over the document: a plain document of an earlier version.
        case renamed

        var testDescription: String { rawValue }
    }

    /// A folder holding a good document `counter` with count 7, whose next write goes `way`.
    static func withGoodDocument(_ way: WriteWay = .inPlace, _ body: (FileStorage, URL) throws -> Void) throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            switch way {
            case .inPlace:
                try storage.save(
                    PersistedCounter(count: 7), to: StoreDocument(key: "counter", default: PersistedCounter(count: 7)))
                #expect(DocumentFileText.isSlotFile(try Data(contentsOf: storage.fileURL(forKey: "counter"))))
            case .renamed:
                let plain = try DocumentCoding.encode(PersistedCounter(count: 7), key: "counter", store: "PersistedCounter")
                try plain.write(to: storage.fileURL(forKey: "counter"))
                try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { _ in }  // the lock file
            }
            // A storage of its own, as a process starting would have: the one above keeps the
            // lock file and the document open (`KeptFiles`), and this one opens them, so that
            // the faults of each test meet the calls they are for.
            try body(FileStorage(folder: folder, reportNotice: { _ in }), folder)
        }
    }

    static func update(_ storage: FileStorage) throws(StorageError) {
        try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
    }

    static func load(_ storage: FileStorage) throws(StorageError) -> StorageLoad<PersistedCounter> {
        try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
    }

    /// What `load` or `update` threw, or `nil`.
    static func failure(of operation: String, _ storage: FileStorage) -> StorageError? {
        do throws(StorageError) {
            if operation == "load" { _ = try load(storage) } else { try update(storage) }
            return nil
        } catch { return error }
    }

    @Test(arguments: Errno.transient, [FileFaults.Call.openDocument, .fstat, .read])
    func readFailureThrowsAndMovesNothing(failure: Errno, call: FileFaults.Call) throws {
        try Self.withGoodDocument { storage, folder in
            let before = try snapshot(of: folder)
            for operation in ["load", "update"] {
                let faults = FileFaults([call: [failure.code]])
                let error = FileFaults.$current.withValue(faults) { Self.failure(of: operation, storage) }
                guard case .readFailed(let file, let reason)? = error else {
                    Issue.record("\(operation): expected readFailed, got \(String(describing: error))")
                    continue
                }
                #expect(faults.isUsedUp)
                #expect(file == (try storage.fileURL(forKey: "counter")))
                #expect(reason == String(cString: strerror(failure.code)))
                #expect(error?.description.contains("left in place, unchanged") == true)
                #expect(try snapshot(of: folder) == before, "\(operation) moved or changed a file")
            }
            #expect(try Self.load(storage) == StorageLoad(value: PersistedCounter(count: 7), isStored: true))
        }
    }

    @Test(arguments: [
        (WriteWay.inPlace, FileFaults.Call.write, ENOSPC), (.inPlace, .write, EIO), (.inPlace, .openForWriting, EMFILE),
        (.renamed, .write, ENOSPC), (.renamed, .write, EIO), (.renamed, .fsync, EIO), (.renamed, .openTemporary, EROFS),
        (.renamed, .openTemporary, EMFILE), (.renamed, .rename, EIO),
    ])
    func writeFailureSaysTheDocumentIsUnchangedAndItIs(way: WriteWay, call: FileFaults.Call, code: Int32) throws {
        try Self.withGoodDocument(way) { storage, folder in
            let before = try snapshot(of: folder)
            let faults = FileFaults([call: [code]])
            #expect {
                try FileFaults.$current.withValue(faults) { try Self.update(storage) }
            } throws: { error in
                guard case StorageError.writeFailed(_, let reason) = error else { return false }
                return reason == String(cString: strerror(code)) && "\(error)".contains("The file on disk is unchanged.")
            }
            #expect(faults.isUsedUp)
            #expect(try snapshot(of: folder) == before, "the document changed or a temporary file was left")
        }
    }

    @Test(arguments: Errno.transient)
    func lockFailureThrowsAndMovesNothing(failure: Errno) throws {
        try Self.withGoodDocument { storage, folder in
            let before = try snapshot(of: folder)
            // A flock that would block (EWOULDBLOCK, which is EAGAIN on Linux) means another
            // holds the lock: that is waited for, not a failure.
            let calls: [FileFaults.Call] = failure.code == EWOULDBLOCK ? [.openLock] : [.openLock, .flock]
            for call in calls {
                #expect {
                    try FileFaults.$current.withValue(FileFaults([call: [failure.code]])) { try Self.update(storage) }
                } throws: { error in
                    guard case StorageError.lockFailed = error else { return false }
                    return "\(error)".contains("not read or changed")
                }
            }
            #expect(try snapshot(of: folder) == before)
        }
    }

    @Test(arguments: WriteWay.allCases)
    func interruptedCallsAreRetried(way: WriteWay) throws {
        try Self.withGoodDocument(way) { storage, _ in
            // In place the document is opened again to be written, and flushed; the rename way
            // writes a temporary file.
            var calls: [FileFaults.Call: [Int32]] = [
                .openLock: [EINTR], .flock: [EINTR, EINTR], .openDocument: [EINTR], .read: [EINTR], .write: [EINTR],
            ]
            switch way {
            case .inPlace: (calls[.openForWriting], calls[.fsync]) = ([EINTR], [EINTR])
            case .renamed: calls[.openTemporary] = [EINTR]
            }
            let faults = FileFaults(calls)
            try FileFaults.$current.withValue(faults) { try Self.update(storage) }
            #expect(faults.isUsedUp)
            #expect(try Self.load(storage).value.count == 8)
        }
    }

    @Test func badDocumentThatCanNotBeMovedAsideStaysInPlace() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)  // a folder the library made: bad files are kept aside
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            try Data("not json".utf8).write(to: file)
            let before = try snapshot(of: folder)
            for operation in ["load", "update"] {
                let error = FileFaults.$current.withValue(FileFaults([.rename: [EACCES]])) {
                    Self.failure(of: operation, storage)
                }
                guard case .keepAsideFailed(let reported, let reason)? = error else {
                    Issue.record("\(operation): expected keepAsideFailed, got \(String(describing: error))")
                    continue
                }
                #expect(reported == file)
                #expect(reason.contains("it is damaged") && reason.contains(String(cString: strerror(EACCES))))
                #expect(error?.description.contains("It is still in place, unchanged, and nothing was written.") == true)
                var after = try snapshot(of: folder)
                after["counter.lock"] = nil
                #expect(after == before)
            }
        }
    }

    @Test func failedWriteAfterKeepingABadDocumentAsidePutsItBack() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)  // a folder the library made: bad files are kept aside
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            try Data("not json".utf8).write(to: file)
            let before = try snapshot(of: folder)
            // The first rename keeps the bad document aside; the second, of the new document, fails.
            let faults = FileFaults([.rename: [0, EIO]])
            #expect {
                try FileFaults.$current.withValue(faults) { try Self.update(storage) }
            } throws: { error in
                guard case StorageError.writeFailed = error else { return false }
                return "\(error)".contains("unchanged")
            }
            #expect(faults.isUsedUp)
            var after = try snapshot(of: folder)
            after["counter.lock"] = nil
            #expect(after == before, "the bad document is back, nothing else is left")
        }
    }
}
#endif
