#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// A writer's temporary file is proven live by the lock its writer holds on it, never by a
/// process id: ids mean nothing to another user or in another pid namespace.
@Suite("FileStorage temporary files locked by their writer", .ownThread)
struct FileStorageTemporaryLockTests {
    private static let document = StoreDocument(key: "counter", default: PersistedCounter())

    /// Where a writer runs: as a child of the test, or in a pid namespace of its own, where the
    /// process ids it sees are not the test's.
    enum Place {
        case child, otherPidNamespace
    }

    /// Whether `unshare --pid --fork` runs here (root, and a kernel that allows it).
    static let namespacesWork: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = Process()
        probe.executableURL = URL(filePath: "/usr/bin/unshare")
        probe.arguments = ["--pid", "--fork", "/bin/true"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// A leftover of a writer that was killed: named as this version names temporary files,
    /// with a lock file other than the one the next writer holds, and locked by no one. It is
    /// removed at once — although the test's own process, alive and holding locks, runs under
    /// any id it could be named with. (Named with a process id, as before, it was kept as this
    /// process's own and never removed.)
    @Test func anUnlockedLeftoverIsRemovedAtOnceWhateverProcessIsAlive() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, lockTimeout: .milliseconds(300), reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 1), to: Self.document)
            let lock = try #require(FileStamp.of(folder.appending(path: "counter.lock")))
            let name = "counter~" + TemporaryNames.writerPart(lockInode: lock.inode ^ 1) + TemporaryNames.next() + ".tmp"
            let leftover = folder.appending(path: name)
            try Data("{".utf8).write(to: leftover)

            let started = ContinuousClock.now
            let update = try storage.update(Self.document) { $0.count += 1 }

            #expect(update.value.count == 2)
            #expect(ContinuousClock.now - started < .seconds(30), "the write did not wait for the leftover")
            #expect(!FileManager.default.fileExists(atPath: leftover.path(percentEncoded: false)), "the leftover was removed")
        }
    }

    /// A leftover whose name a process holding a lock on something else could claim (its lock
    /// file's inode part and a running process id) is removed all the same: only the lock on the
    /// file itself counts.
    @Test func anUnlockedLeftoverIsRemovedWhileAnotherProcessHoldsALock() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, lockTimeout: .milliseconds(300), reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 1), to: Self.document)
            let holder = try FileStorageLockTests.holdLock("other", in: folder)
            defer {
                holder.send(SIGKILL)
                _ = try? holder.finish()
            }
            let lock = try #require(FileStamp.of(folder.appending(path: "counter.lock")))
            let leftover = folder.appending(
                path: "counter~" + TemporaryNames.writerPart(lockInode: lock.inode ^ 1) + TemporaryNames.next() + ".tmp")
            try Data("{".utf8).write(to: leftover)

            let update = try storage.update(Self.document) { $0.count += 1 }

            #expect(update.value.count == 2)
            #expect(!FileManager.default.fileExists(atPath: leftover.path(percentEncoded: false)))
        }
    }

    /// A writer in another process stopped with its temporary file written and locked, and its
    /// lock file removed: a writer here takes the new lock file, finds the stopped writer's
    /// temporary file locked, keeps it, and gives up after its lock timeout naming it. Once the
    /// stopped writer goes on, its write completes. In another pid namespace the stopped
    /// writer's file was named with a process id that, here, is another process holding no
    /// lock, and it was removed while its writer lived.
    @Test func aLockedTemporaryFileOfALiveWriterIsKeptAndItsWriteCompletes() throws {
        try checkStoppedWriter(in: .child)
    }

    /// The same, with the stopped writer in a pid namespace of its own.
    @Test(.enabled(if: namespacesWork, "`unshare --pid --fork` needs root and a kernel that allows it"))
    func aLockedTemporaryFileOfAWriterInAnotherPidNamespaceIsKeptAndItsWriteCompletes() throws {
        try checkStoppedWriter(in: .otherPidNamespace)
    }

    /// The stopped writer's scenario above, with the writer in `place`.
    private func checkStoppedWriter(in place: Place) throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, lockTimeout: .milliseconds(300), reportNotice: { _ in })
            try writePlainCounter(10, in: storage)  // written the rename way, with a temporary file
            let helper = try FileStorageLockTests.helper()
            let process = Process()
            let arguments = [folder.path(percentEncoded: false), "1", "counter", "--pause-at", "counter:temporary-written"]
            switch place {
            case .child:
                process.executableURL = helper
                process.arguments = arguments
            case .otherPidNamespace:
                // `sh` is the namespace's first process; the writer, its child, is the second.
                process.executableURL = URL(filePath: "/usr/bin/unshare")
                process.arguments =
                    ["--pid", "--fork", "/bin/sh", "-c", "\"$0\" \"$@\"; exit $?", helper.path(percentEncoded: false)] + arguments
            }
            let writer = try StartedChild.start(process)
            defer { writer.send(SIGKILL) }
            try writer.waitForLine { $0.hasPrefix("paused at ") }
            let temporaries = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
                .filter { $0.hasPrefix("counter~") && $0.hasSuffix(".tmp") }
            let paused = try #require(temporaries.first, "the stopped writer's temporary file")
            #expect(temporaries.count == 1)
            try FileManager.default.removeItem(at: folder.appending(path: "counter.lock"))

            #expect {
                try storage.update(Self.document) { $0.count += 100 }
            } throws: { error in
                guard case StorageError.lockTimedOut(let file, _, _) = error else { return false }
                return file.lastPathComponent == paused
            }
            #expect(
                FileManager.default.fileExists(atPath: folder.appending(path: paused).path(percentEncoded: false)),
                "the live writer's temporary file is kept")

            let result = try Self.continueUntilExit(writer, place: place)
            #expect(result.status == 0, "\(result)")
            #expect(try storage.load(Self.document).value.count == 11, "the stopped writer's write completed")
        }
    }

    /// Lets the stopped writer go on and waits for it: in a pid namespace, the writer is the
    /// grandchild of the started process (`unshare`, then `sh`), and is sent `SIGCONT` itself.
    private static func continueUntilExit(_ writer: StartedChild, place: Place) throws -> ChildProcessResult {
        guard place == .otherPidNamespace else { return try writer.continueUntilExit() }
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            for pid in descendants(of: writer.processIdentifier) { kill(pid, SIGCONT) }
            if !Self.isRunning(writer.processIdentifier) { break }
            usleep(50_000)
        }
        return try writer.finish()
    }

    /// The processes below `pid`, as `/proc` lists their children.
    private static func descendants(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        let children = text.split(separator: " ").compactMap { Int32($0) }
        return children + children.flatMap { descendants(of: $0) }
    }

    /// Whether `pid` has not exited (a zombie has: its state is `Z`).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = status.lastIndex(of: ")")
        else { return false }
        return status[status.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }
}
#endif
