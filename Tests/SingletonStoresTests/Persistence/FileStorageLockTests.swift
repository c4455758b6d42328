import Foundation
import SingletonStoresLocking
import StoreObservation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

extension NotificationChannel where Payload == StoreChange<PersistedCounter> {
    static let heldCounter = NotificationChannel("Tests.heldCounter.changed")
}

/// Locks held by other processes: writes wait a bounded time, reads never; a lock file removed
/// or replaced while writers run loses nothing, and a live writer's temporary file is kept.
@Suite("FileStorage locks held by other processes", .ownThread)
struct FileStorageLockTests {
    /// The built `storage-stress` helper.
    static func helper(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        return try #require(
            found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))", sourceLocation: sourceLocation)
    }

    /// Starts `storage-stress hold-lock <folder> <key>` and waits until it holds the lock.
    static func holdLock(_ key: String, in folder: URL) throws -> StartedChild {
        let process = Process()
        process.executableURL = try helper()
        process.arguments = ["hold-lock", folder.path(percentEncoded: false), key]
        let child = try StartedChild.start(process)
        try child.waitForLine { $0.hasPrefix("holding ") }  // the helper took the lock
        return child
    }

    static func counter(_ storage: FileStorage) throws -> Int {
        try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count
    }

    /// Runs `body` with a storage of `folder` whose writes wait 0.3 s at most, a temporary file
    /// of its store `counter` planted in the name of a running process that holds a lock (of the
    /// store `other`, as a live writer would), and that process's id. `lockPart` gives what
    /// follows the process id in the name: `<16 hex digits>-`, or nothing.
    static func withPlantedTemporary(
        in folder: URL, lockPart: () throws -> String = { "" }, _ body: (FileStorage, URL, Int32) throws -> Void
    ) throws {
        let storage = FileStorage(folder: folder, lockTimeout: .milliseconds(300), reportNotice: { _ in })
        let holder = try holdLock("other", in: folder)
        defer {
            holder.send(SIGKILL)
            _ = try? holder.finish()
        }
        let pid = holder.processIdentifier
        let file = folder.appending(path: "counter~\(pid)-\(try lockPart())0123456789abcdef0123456789abcdef.tmp")
        try Data("{".utf8).write(to: file)
        try body(storage, file, pid)
    }

    /// The lock part of a temporary name of `counter` in `folder` (see
    /// ``withPlantedTemporary(in:lockPart:_:)``): its lock file's inode, changed by `flip`.
    static func counterLockPart(in folder: URL, flip: UInt64 = 0) throws -> String {
        let lock = try #require(FileStamp.of(folder.appending(path: "counter.lock")))
        return TemporaryNames.hex(lock.inode ^ flip) + "-"
    }

    @Test func aWriteGivesUpAfterTheTimeoutNamingTheStoreAndTheHolderAndSucceedsOnceItIsGone() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, lockTimeout: .milliseconds(300), reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 4), to: StoreDocument(key: "counter", default: PersistedCounter(count: 4)))
            let holder = try Self.holdLock("counter", in: folder)
            holder.send(SIGSTOP)  // stopped while holding the lock

            // Reading does not wait.
            #expect(try Self.counter(storage) == 4)

            // Writing waits the timeout, then says who holds the store.
            let started = ContinuousClock.now
            #expect {
                try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
            } throws: { error in
                guard case StorageError.lockTimedOut(let file, let pid, let waited) = error else { return false }
                let message = "\(error)"
                return file.lastPathComponent == "counter.lock" && waited == .milliseconds(300)
                    && pid == holder.processIdentifier
                    && message.contains("The counter store is held by another process (pid \(holder.processIdentifier))")
                    && message.contains("Try again when that process has finished")
            }
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(try Self.counter(storage) == 4, "nothing was written")

            holder.send(SIGKILL)
            holder.send(SIGCONT)
            _ = try holder.finish()
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
            #expect(try Self.counter(storage) == 5)
        }
    }

    @Test func aLoadOfABadDocumentDoesNotWaitForTheLock() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)  // a folder the library made: bad files are kept aside
            let storage = FileStorage(folder: folder, lockTimeout: .seconds(600), reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 1), to: StoreDocument(key: "counter", default: PersistedCounter(count: 1)))
            try Data("not json".utf8).write(to: storage.fileURL(forKey: "counter"))
            let holder = try Self.holdLock("counter", in: folder)
            defer {
                holder.send(SIGKILL)
                _ = try? holder.finish()
            }
            // The bad document is left for the next write; the load returns the default at once.
            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter(count: 9)))
            #expect(loaded == StorageLoad(value: PersistedCounter(count: 9), isStored: false))
            #expect(FileManager.default.fileExists(atPath: try storage.fileURL(forKey: "counter").path(percentEncoded: false)))
            let available = try storage.updateIfAvailable(
                StoreDocument(key: "counter", default: PersistedCounter())
            ) { $0.count += 1 }
            #expect(available == nil)
        }
    }

    /// A lock this process let go of can still be held, for a moment, by a child process that
    /// another thread is starting: the child holds copies of the parent's descriptors from its
    /// fork until it runs its program. That is no other holder, and a load that finds the lock
    /// so moves a bad document aside all the same (it did not, and tests that spawn processes in
    /// parallel made recoveries and migrations at load fail now and then).
    #if os(Linux)
    /// A child process that another thread is starting holds a copy of every descriptor until it
    /// runs its program. The copy here is made to last: a duplicate of the storage's own lock
    /// descriptor, taken inside the write and kept after it. The storage lets the lock go
    /// explicitly, so the copy does not keep it, and a load that must not wait moves the bad
    /// document aside.
    @Test func aLockLetGoOfIsFreeWhileACopyOfItsDescriptorLivesOn() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)  // a folder the library made: bad files are kept aside
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let lockPath = folder.appending(path: "counter.lock").resolvingSymlinksInPath().path(percentEncoded: false)
            var copy: Int32 = -1
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter(count: 0))) {
                $0.count = 1
                copy = Self.duplicateOpenDescriptor(of: lockPath)
            }
            defer { if copy >= 0 { close(copy) } }
            try #require(copy >= 0, "the storage's lock descriptor was not found under /proc/self/fd")
            let file = try storage.fileURL(forKey: "counter")
            try Data("not json".utf8).write(to: file)

            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter(count: 9)))
            let kept = try #require(loaded.recovery?.keptFile, "the lock stayed held through the copy")
            #expect(try String(contentsOf: kept, encoding: .utf8) == "not json")
        }
    }

    /// A document's first write renames into place a temporary file its writer has held locked
    /// from its creation, and writers lock the document file itself too: that lock is let go
    /// explicitly as well, so a copy of the writer's descriptor in a child being started (here a
    /// duplicate taken after the rename, as a fork would) leaves the new document free.
    @Test func aDocumentMadeByRenameIsNotLeftLockedByACopyOfItsWritersDescriptor() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            let documentPath = file.resolvingSymlinksInPath().path(percentEncoded: false)
            let copy = Locked<Int32>(-1)
            // Just before the folder is flushed the temporary file is the document, still open.
            let faults = FileFaults([:]) { call in
                guard call == .syncFolder else { return }
                copy.withLock { if $0 < 0 { $0 = Self.duplicateOpenDescriptor(of: documentPath) } }
            }
            try FileFaults.$current.withValue(faults) {
                try storage.update(StoreDocument(key: "counter", default: PersistedCounter(count: 0))) { $0.count = 1 }
            }
            let held = copy.withLock { $0 }
            defer { if held >= 0 { close(held) } }
            try #require(held >= 0, "no descriptor on the document was open when the folder was flushed")

            let other = open(documentPath, O_RDONLY | O_CLOEXEC)
            try #require(other >= 0)
            defer { close(other) }
            #expect(flock(other, LOCK_EX | LOCK_NB) == 0, "the copy of the writer's descriptor kept the document locked")
            _ = flock(other, LOCK_UN)
            // And a load that must not wait moves a bad document aside.
            try Data("not json".utf8).write(to: file)
            let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter(count: 9)))
            #expect(loaded.recovery?.keptFile != nil, "the load found the document locked")
        }
    }

    /// A duplicate of this process's open descriptor on `path`, found under /proc/self/fd.
    static func duplicateOpenDescriptor(of path: String) -> Int32 {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return -1 }
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                target == path, let descriptor = Int32(entry)
            else { continue }
            return dup(descriptor)
        }
        return -1
    }
    #endif

    /// The race as tests met it: loads of bad documents while another thread starts processes.
    @Test func loadsMoveEveryBadDocumentAsideWhileAnotherThreadStartsProcesses() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)  // a folder the library made: bad files are kept aside
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            let stop = Recorder<Bool>()
            let spawned = Recorder<Bool>()
            for _ in 0..<2 {
                Thread {
                    while stop.values.isEmpty {
                        let process = Process()
                        process.executableURL = URL(filePath: "/bin/true")
                        spawned.append((try? process.run()) != nil && process.waitForExit(within: .seconds(60)))
                    }
                }.start()
            }
            defer { stop.append(true) }
            var missed: [Int] = []
            // At least 300 loads, and on until the other threads have started some processes
            // (a loaded machine may give them little time at first).
            var round = 0
            while round < 300 || (spawned.values.count <= 10 && round < 20_000) {
                round += 1
                try Data("bad \(round)".utf8).write(to: file)
                let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
                if loaded.recovery?.keptFile == nil { missed.append(round) }
            }
            #expect(missed == [], "loads that left their bad document in place")
            #expect(spawned.values.count > 10, "processes were started meanwhile")
        }
    }

    /// A store whose write waits for another process's lock still answers reads at once, and
    /// commits the write once the lock is free.
    @Test func aStoreIsReadWhileItsWriteWaitsForTheLock() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, lockTimeout: .seconds(600), reportNotice: { _ in })
            try storage.save(PersistedCounter(count: 3), to: StoreDocument(key: "counter", default: PersistedCounter(count: 3)))
            let store = PersistentStoreCore(
                key: "counter", default: PersistedCounter(), storage: storage, channel: .heldCounter,
                center: NotificationCenter(), watching: .off, reportIssue: { _ in })
            let holder = try Self.holdLock("counter", in: folder)
            holder.send(SIGSTOP)
            let written = DispatchSemaphore(value: 0)
            Thread {
                _ = try? store.update { $0.count += 1 }
                written.signal()
            }.start()
            // The write is waiting (it cannot finish while the lock is held)…
            #expect(written.wait(timeout: .now() + 0.3) == .timedOut)
            // …and reading the store does not wait for it.
            let started = ContinuousClock.now
            #expect(store.state.count == 3)
            try store.reload()
            #expect(store.state.count == 3)
            #expect(ContinuousClock.now - started < .seconds(5))

            holder.send(SIGKILL)
            holder.send(SIGCONT)
            _ = try holder.finish()
            #expect(written.wait(timeout: .now() + 60) == .success)
            #expect(store.state.count == 4)
            #expect(try Self.counter(storage) == 4)
        }
    }

    @Test func theTimeoutComesFromTheEnvironmentAndIsClamped() {
        func timeout(_ text: String?) -> Duration {
            FileStorage(folder: URL(filePath: "/tmp/x"), environment: text.map { ["SINGLETON_STORES_LOCK_TIMEOUT": $0] } ?? [:])
                .lockTimeout
        }
        #expect(timeout(nil) == .seconds(5))
        #expect(timeout("0.25") == .milliseconds(250))
        #expect(timeout("-3") == .zero)
        #expect(timeout("100000") == .seconds(600))
        #expect(timeout("nan") == .seconds(5))
        #expect(timeout("soon") == .seconds(5))
        #expect(FileStorage(folder: URL(filePath: "/tmp/x"), lockTimeout: .seconds(-1)).lockTimeout == .zero)
        #expect(FileStorage(folder: URL(filePath: "/tmp/x"), lockTimeout: .seconds(3600)).lockTimeout == .seconds(600))
    }

    /// `inf` is the documented maximum, as `1e308` is; text that is no number is ignored, and
    /// said so (it was ignored silently).
    @Test func anInfiniteTimeoutIsTheMaximumAndOneThatIsNoNumberIsReported() {
        func setting(_ text: String) -> (timeout: Duration, ignored: String?) {
            LockTimeoutSetting.of([FileStorage.lockTimeoutEnvironmentVariable: text])
        }
        #expect(setting("inf") == (.seconds(600), nil))
        #expect(setting(" +infinity ") == (.seconds(600), nil))
        #expect(setting("1e308") == (.seconds(600), nil))
        #expect(setting("-inf") == (.zero, nil))
        #expect(setting("0.5") == (.milliseconds(500), nil))
        for text in ["abc", "nan", "", "  ", "5s", "NaN"] {
            #expect(setting(text) == (.seconds(5), text), "\(text.debugDescription)")
        }
        #expect(LockTimeoutSetting.of([:]) == (.seconds(5), nil))

        // Reported once per process and text, through the storage's notices; never when a
        // timeout is passed. (A text of this test's own: tests run in parallel.)
        let text = "soon \(UUID().uuidString)\u{1B}[2J"
        let notices = Recorder<StorageNotice>()
        let environment = [FileStorage.lockTimeoutEnvironmentVariable: text]
        _ = FileStorage(
            folder: URL(filePath: "/tmp/x"), environment: environment, lockTimeout: .seconds(1),
            reportNotice: { notices.append($0) })
        #expect(notices.values == [])
        for _ in 0..<3 {
            let storage = FileStorage(
                folder: URL(filePath: "/tmp/x"), environment: environment, reportNotice: { notices.append($0) })
            #expect(storage.lockTimeout == .seconds(5))
        }
        #expect(notices.values == [.lockTimeoutIgnored(value: text)])
        let message = notices.values.first.map { "\($0)" } ?? ""
        #expect(message.hasPrefix("SINGLETON_STORES_LOCK_TIMEOUT is set to \"soon "))
        #expect(message.contains("[2J\", which is not a number of seconds, so it is ignored"))
        #expect(!message.contains("\u{1B}"), "the control character is escaped")
        #expect(message.hasSuffix("Set it to a number of seconds from 0 to 600, such as 0.5, or unset it."))
    }

    @Test func theHolderIsFoundInTheLocksTable() {
        let table = """
            1: FLOCK  ADVISORY  WRITE 4443 fe:00:16224914 0 EOF
            2: -> FLOCK  ADVISORY  WRITE 77 fe:00:16228734 0 EOF
            3: POSIX  ADVISORY  WRITE 99 fe:00:16228734 0 EOF
            4: FLOCK  ADVISORY  WRITE 4242 fe:00:16228734 0 EOF
            """
        // st_dev 0xfe00 is device fe:00.
        #expect(LockHolder.processID(inLocksTable: table, device: 0xfe00, inode: 16_228_734, excluding: 1) == 4242)
        #expect(LockHolder.processID(inLocksTable: table, device: 0xfe00, inode: 16_228_734, excluding: 4242) == nil)
        #expect(LockHolder.processID(inLocksTable: table, device: 0xfe01, inode: 16_228_734, excluding: 1) == nil)
        #expect(LockHolder.processID(inLocksTable: "garbage\n1: FLOCK", device: 0, inode: 0, excluding: 1) == nil)
        // Any file of the device: the holders of flock locks only, waiters and POSIX locks left out.
        #expect(LockHolder.processIDs(inLocksTable: table, device: 0xfe00, inode: nil) == [4443, 4242])
        #expect(LockHolder.processIDs(inLocksTable: table, device: 0xfe01, inode: nil).isEmpty)
        #expect(LockHolder.processIDs(inLocksTable: table, device: nil, inode: nil) == [4443, 4242])
    }

    @Test func writersLoseNothingWhileTheLockFileIsRemovedAndReplaced() throws {
        let binary = try Self.helper()
        try withTemporaryFolder { folder in
            let writers = 4
            let increments = 60
            let processes = (0..<writers).map { _ in
                let process = Process()
                process.executableURL = binary
                process.arguments = [folder.path(percentEncoded: false), String(increments)]
                // A loaded machine must not turn the test into one of timeouts.
                process.environment = ProcessInfo.processInfo.environment.merging(
                    ["SINGLETON_STORES_LOCK_TIMEOUT": "600"]) { $1 }
                return process
            }
            for process in processes { try process.run() }
            let lock = folder.appending(path: "counter.lock").path(percentEncoded: false)
            let replacement = folder.appending(path: "replacement").path(percentEncoded: false)
            var round = 0
            while processes.contains(where: \.isRunning) {
                round += 1
                if round.isMultiple(of: 2) {
                    unlink(lock)
                } else {
                    // Replaced by another file, as a cleaning tool restoring a backup might.
                    close(open(replacement, O_CREAT | O_WRONLY, 0o600))
                    rename(replacement, lock)
                }
                usleep(1000)  // a thousand times a second: far more often than any person or tool would
            }
            for process in processes { process.waitUntilExit() }
            #expect(processes.allSatisfy { $0.terminationReason == .exit && $0.terminationStatus == 0 })
            #expect(round > 10, "the lock file was removed while the writers ran")
            let total = try FileStorage(folder: folder).load(
                StoreDocument(key: "counter", default: PersistedCounter()))
            #expect(total.value.count == writers * increments)
        }
    }

    /// A writer paused with its temporary file written, the lock file removed, and a writer in
    /// another process: that writer must keep the paused one's temporary file and must not
    /// commit while the paused one may (two writers committing at once lost an update when
    /// lock files were removed a thousand times a second); the paused one, finding its lock file
    /// gone, writes again under the new one, and both updates count.
    @Test func aLiveWritersTemporaryFileIsKeptWhenTheLockFileIsRemoved() throws {
        let binary = try Self.helper()
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try writePlainCounter(10, in: storage)  // written the rename way, with a temporary file
            let marker = "paused-writer-\(UUID().uuidString)"
            let paused = DispatchSemaphore(value: 0)
            let resume = DispatchSemaphore(value: 0)
            let pausedOnce = Locked(false)
            FaultInjection.install { point in
                guard point == .temporaryWritten("counter"), Thread.current.threadDictionary[marker] != nil,
                    pausedOnce.withLock({ done in
                        defer { done = true }; return !done
                    })
                else { return }
                paused.signal()
                resume.wait()
            }
            let outcome = Locked<Result<Int, StorageError>?>(nil)
            let writer = Thread {
                Thread.current.threadDictionary[marker] = true
                do throws(StorageError) {
                    let update = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) {
                        $0.count += 1
                    }
                    outcome.withLock { $0 = .success(update.value.count) }
                } catch {
                    outcome.withLock { $0 = .failure(error) }
                }
            }
            writer.start()
            try #require(paused.wait(timeout: .now() + 60) == .success, "the writer did not reach its temporary file")
            let temporaries = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
                .filter { $0.hasSuffix(".tmp") }
            #expect(temporaries.count == 1)

            let lock = folder.appending(path: "counter.lock").path(percentEncoded: false)
            unlink(lock)
            // The other process locks a new lock file and finds the paused writer's temporary
            // file: that writer may be between its checks and its rename, so the other waits
            // for it (not committing over it) and keeps its file.
            let other = Process()
            other.executableURL = binary
            other.arguments = [folder.path(percentEncoded: false), "1"]
            other.environment = ProcessInfo.processInfo.environment.merging(["SINGLETON_STORES_LOCK_TIMEOUT": "600"]) { $1 }
            try other.run()
            defer { other.endNow() }
            #expect(eventually { FileManager.default.fileExists(atPath: lock) }, "the other writer made a new lock file")
            usleep(200_000)  // time for it to look, several times over; it must still be waiting
            #expect(other.isRunning, "the other writer committed while the paused one could still commit")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
                .filter { $0.hasSuffix(".tmp") }
            #expect(Set(temporaries).isSubset(of: Set(left)), "the live writer's temporary file was kept")

            resume.signal()
            #expect(other.waitForExit(within: StartedChild.exitDeadline))
            #expect(other.terminationReason == .exit && other.terminationStatus == 0)
            let finished = ContinuousClock.now
            while outcome.withLock({ $0 }) == nil, ContinuousClock.now - finished < .seconds(60) { usleep(1000) }
            let result = outcome.withLock { $0 }
            // Each counts once, in either order.
            #expect([11, 12].contains(result.flatMap { try? $0.get() }), "\(String(describing: result))")
            #expect(try Self.counter(storage) == 12)
        }
    }

    #if os(Linux)
    /// A temporary file named by a process that runs but holds no lock — its id reused after
    /// the writer was killed (or a file the library did not make) — is no writer in the way:
    /// a write goes on at once and removes it, instead of waiting out the lock timeout and
    /// naming an unrelated process as the store's holder.
    @Test func aTemporaryFileOfARunningProcessThatHoldsNoLockDoesNotStopWrites() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, lockTimeout: .milliseconds(300), reportNotice: { _ in })
            let bystander = Process()
            bystander.executableURL = URL(filePath: "/bin/sleep")
            bystander.arguments = ["600"]
            try bystander.run()
            defer { bystander.endNow() }
            let file = folder.appending(path: "counter~\(bystander.processIdentifier)-0123456789abcdef0123456789abcdef.tmp")
            try Data("{".utf8).write(to: file)

            let update = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }

            #expect(update.value.count == 1)
            #expect(try Self.counter(storage) == 1)
            #expect(!FileManager.default.fileExists(atPath: file.path(percentEncoded: false)), "the stale file was removed")
        }
    }

    /// A temporary file of a process that holds a lock in the folder may be a live writer's
    /// (one whose lock file was removed): a write waits for it up to the lock timeout, then
    /// says that a write of that process did not end, naming its file — not that the store's
    /// lock file is held — and the file is kept.
    @Test func aWriterInTheWayIsNamedWithItsUnfinishedTemporaryFile() throws {
        try withTemporaryFolder { folder in
            try Self.withPlantedTemporary(in: folder) { storage, file, pid throws in
                #expect {
                    try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
                } throws: { error in
                    guard case StorageError.lockTimedOut(let named, let holderID, let waited) = error else { return false }
                    let text = "\(error)"
                    return named.lastPathComponent == file.lastPathComponent && holderID == pid && waited == .milliseconds(300)
                        && text.contains("is being written by another process (pid \(pid))")
                        && text.contains("did not end within 0.3 seconds") && !text.contains("held by")
                        && text.contains("If no copy of the app is running")
                }
                #expect(FileManager.default.fileExists(atPath: file.path(percentEncoded: false)), "a live writer's file is kept")
                #expect(try Self.counter(storage) == 0)
            }
        }
    }
    #endif

    /// A temporary file named with the lock file that a writer now holds is left over,
    /// whatever process runs under the id in its name: its writer held that very lock for as
    /// long as the file existed, so it is gone. A write removes it at once — also where the
    /// system does not tell which processes hold locks (Apple platforms), where a process id
    /// reused after a writer was killed used to hold up the store's writes while the file was
    /// recent.
    @Test func aTemporaryFileNamedWithTheHeldLockIsLeftOverWhateverRunsUnderItsProcessID() throws {
        try withTemporaryFolder { folder in
            let document = StoreDocument(key: "counter", default: PersistedCounter())
            try FileStorage(folder: folder, reportNotice: { _ in }).save(PersistedCounter(count: 1), to: document)
            try Self.withPlantedTemporary(in: folder, lockPart: { try Self.counterLockPart(in: folder) }) {
                storage, file, _ throws in
                let update = try storage.update(document) { $0.count += 1 }

                #expect(update.value.count == 2)
                #expect(try Self.counter(storage) == 2)
                #expect(
                    !FileManager.default.fileExists(atPath: file.path(percentEncoded: false)), "the left-over file was removed")
            }
        }
    }

    /// One named with another lock file — a writer whose lock file was removed or replaced
    /// after it locked it — may be a live writer's: the write waits for it up to the lock
    /// timeout, names it, and keeps it.
    @Test func aTemporaryFileNamedWithAnotherLockOfARunningLockHolderIsWaitedFor() throws {
        try withTemporaryFolder { folder in
            let document = StoreDocument(key: "counter", default: PersistedCounter())
            try FileStorage(folder: folder, reportNotice: { _ in }).save(PersistedCounter(count: 1), to: document)
            try Self.withPlantedTemporary(in: folder, lockPart: { try Self.counterLockPart(in: folder, flip: 1) }) {
                storage, file, pid throws in
                #expect {
                    try storage.update(document) { $0.count += 1 }
                } throws: { error in
                    guard case StorageError.lockTimedOut(let named, let holderID, _) = error else { return false }
                    return named.lastPathComponent == file.lastPathComponent && holderID == pid
                }
                #expect(FileManager.default.fileExists(atPath: file.path(percentEncoded: false)), "a live writer's file is kept")
                #expect(try Self.counter(storage) == 1)
            }
        }
    }

    /// A FIFO in place of a lock file or of its turnstile (another user's, in a shared folder)
    /// is refused or passed by at once: opening it for reading used to wait for a writer
    /// forever, and `purchase buy` hung.
    @Test func aFIFOInPlaceOfALockFileIsRefusedWithoutWaiting() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, lockTimeout: .seconds(600), reportNotice: { _ in })
            let lock = folder.appending(path: "counter.lock").path(percentEncoded: false)
            let turnstile = folder.appending(path: "other.lock-queue").path(percentEncoded: false)
            #expect(mkfifo(lock, 0o600) == 0 && mkfifo(turnstile, 0o600) == 0)

            // Each write runs on a thread of its own, so that a write stuck in `open` fails the
            // test instead of hanging it; opening the FIFO for writing lets it go.
            func write(_ key: String) -> Result<Int, StorageError>? {
                let outcome = Locked<Result<Int, StorageError>?>(nil)
                let done = DispatchSemaphore(value: 0)
                Thread {
                    defer { done.signal() }
                    do throws(StorageError) {
                        let update = try storage.update(StoreDocument(key: key, default: PersistedCounter())) { $0.count += 1 }
                        outcome.withLock { $0 = .success(update.value.count) }
                    } catch {
                        outcome.withLock { $0 = .failure(error) }
                    }
                }.start()
                if done.wait(timeout: .now() + 60) == .timedOut {
                    for path in [lock, turnstile] {
                        let release = open(path, O_WRONLY | O_NONBLOCK)
                        if release >= 0 { close(release) }
                    }
                    _ = done.wait(timeout: .now() + 60)
                }
                return outcome.withLock { $0 }
            }

            let started = ContinuousClock.now
            let refused = write("counter")
            guard case .failure(.lockFailed(let file, let reason))? = refused else {
                Issue.record("expected the FIFO lock file to be refused: \(String(describing: refused))")
                return
            }
            #expect(file.lastPathComponent == "counter.lock" && reason.contains("not a regular file"))
            // The other store, whose turnstile is a FIFO, writes as if it had none.
            #expect(write("other").flatMap { try? $0.get() } == 1)
            #expect(ContinuousClock.now - started < .seconds(30), "neither write waited for the FIFO")
        }
    }

    @Test func temporaryFilesOfWritersThatAreGoneAreRemovedAndLiveOnesKept() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            // A process id that was just freed: a child that has exited.
            let gone = Process()
            gone.executableURL = URL(filePath: "/bin/sh")
            gone.arguments = ["-c", "exit 0"]
            try gone.run()
            gone.waitUntilExit()
            let id = "0123456789abcdef0123456789abcdef"
            let dead = folder.appending(path: "counter~\(gone.processIdentifier)-\(id).tmp")
            let live = folder.appending(path: "counter~\(getpid())-\(id).tmp")
            let recent = folder.appending(path: "counter~\(id).tmp")  // an older version's, just written
            for file in [dead, live, recent] { try Data("{".utf8).write(to: file) }

            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }

            #expect(!FileManager.default.fileExists(atPath: dead.path(percentEncoded: false)))
            #expect(FileManager.default.fileExists(atPath: live.path(percentEncoded: false)))
            #expect(FileManager.default.fileExists(atPath: recent.path(percentEncoded: false)))
        }
    }
}
