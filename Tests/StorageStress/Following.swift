import Foundation
import SingletonStoresTestSupport
import SingletonStores
import StoreObservation
import StorageStressHeapInUse
import Stores

// The modes of `storage-stress` for stores that follow other processes:
//
//   follow-profile <folder> <last> [--poll]
//       Sets the profile's beta flag (its own write), prints `ready`, then prints
//       `seen <nickname> <µs>` for every profile change it posts (µs: wall-clock microseconds),
//       until the nickname is `v<last>`; then `final <nickname>`.
//   write-profile <folder> <count>
//       Sets the nickname to v1…v<count>, printing `wrote v<i> <µs>` after each write, with
//       the time the write began (so a latency measured from it includes the write itself).
//   follow-counter <folder> <final> [--poll]
//       Follows the `counter` document; prints `ready`, then exits with `final <count> posts
//       <n> ordered <true|false>` once the count reaches <final>.
//   follow-boost <folder>
//       Shows the boost: prints `ready shown=<s> end=<date>`, then `ended <reason> shown=<s>`
//       for each end and `running shown=<s> end=<date>` for each new end date, and exits after
//       the first running boost that follows an end.
//   boost <folder> start <seconds> | stop
//       Starts or stops the boost; prints `end=<date>` (the end date on disk, or `none`).
//   watch-churn <folder> <count>
//       Makes and drops <count> watching stores, then keeps <count> alive at once, each on a
//       document of its own; prints what they added (`during fds+=… threads=… stores=…
//       watching=… rss/store=<bytes> heap/store=<bytes>|unknown`), then the open descriptors and watcher threads before
//       and after (`before fds=… threads=… after fds=… threads=…`); exit 0 when both are back
//       where they started.
//
// Every wait has a deadline of 5 minutes (eight writers on a loaded machine, under the thread
// sanitizer, can take more than one), after which the mode exits with status 1.

enum Following {
    static let deadline: DispatchTime = .now() + .seconds(300)

    static func watching(_ arguments: [String]) -> StorageWatching {
        arguments.contains("--poll") ? .polling(every: .milliseconds(50)) : .automatic
    }

    static var microseconds: Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func followProfile(folder: URL, last: Int, watching: StorageWatching) throws -> Int32 {
        let profile = UserProfileStore(
            storage: FileStorage(folder: folder), center: NotificationCenter(), watching: watching)
        let done = DispatchSemaphore(value: 0)
        let token = profile.observe { change in
            say("seen \(change.new.nickname) \(microseconds)")
            if change.new.nickname == "v\(last)" { done.signal() }
        }
        defer { token.cancel() }
        try profile.setBetaUser(true)
        say("ready")
        guard done.wait(timeout: deadline) == .success else {
            say("timed out at \(profile.profile.nickname)")
            return 1
        }
        say("final \(profile.profile.nickname)")
        return 0
    }

    static func writeProfile(folder: URL, count: Int) throws {
        let profile = UserProfileStore(
            storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off)
        for index in 1...max(count, 1) {
            let began = microseconds
            try profile.setNickname("v\(index)")
            say("wrote v\(index) \(began)")
        }
    }

    static func followCounter(folder: URL, final: Int, watching: StorageWatching) -> Int32 {
        let store = PersistentStoreCore(
            key: "counter", default: PersistedCounter(), storage: FileStorage(folder: folder),
            channel: .stressCounter, center: NotificationCenter(), watching: watching)
        let done = DispatchSemaphore(value: 0)
        let posted = Recorder<Int>()
        let token = store.observe { change in
            posted.append(change.new.count)
            if change.new.count >= final { done.signal() }
        }
        defer { token.cancel() }
        say("ready")
        if store.state.count < final, done.wait(timeout: deadline) != .success {
            say("timed out at \(store.state.count)")
            return 1
        }
        let counts = posted.values
        let ordered = zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }
        say("final \(store.state.count) posts \(counts.count) ordered \(ordered)")
        return 0
    }

    static func followBoost(folder: URL) -> Int32 {
        let center = NotificationCenter()
        let boost = BoostTimeManager(storage: FileStorage(folder: folder), center: center)
        let done = DispatchSemaphore(value: 0)
        let state = Recorder<String>()  // the end dates printed, and "ended" markers
        @Sendable func describe(_ date: Date?) -> String {
            date.map { String($0.timeIntervalSince1970) } ?? "none"
        }
        let ends = NotificationChannel.boostEnded.observe(center: center) { reason in
            state.append("ended")
            say("ended \(reason) shown=\(boost.remainingSeconds)")
        }
        let ticks = NotificationChannel.boostTime.observe(center: center) { _ in
            let end = describe(boost.endDate)
            guard boost.endDate != nil, !state.values.contains(end) else { return }
            let afterAnEnd = state.values.contains("ended")
            state.append(end)
            say("running shown=\(boost.remainingSeconds) end=\(end)")
            if afterAnEnd { done.signal() }
        }
        defer {
            ends.cancel()
            ticks.cancel()
        }
        state.append(describe(boost.endDate))
        say("ready shown=\(boost.remainingSeconds) end=\(describe(boost.endDate))")
        return done.wait(timeout: deadline) == .success ? 0 : 1
    }

    static func changeBoost(folder: URL, _ arguments: [String]) -> Int32 {
        let boost = BoostTimeManager(storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off)
        switch (arguments.first, arguments.dropFirst().first.flatMap { Int($0) }) {
        case ("start", let seconds?): boost.startCountDown(duration: seconds)
        case ("stop", _): boost.stopCountDown()
        default: return 2
        }
        say("end=\(boost.endDate.map { String($0.timeIntervalSince1970) } ?? "none")")
        return 0
    }

    static func watchChurn(folder: URL, count: Int) -> Int32 {
        let before = (fds: openDescriptors(), threads: threads())
        var during = (fds: 0, threads: 0)
        do {
            // Made and dropped one by one, then all alive at once, each on its own document.
            for index in 0..<max(count, 0) {
                _ = makeWatchingStore(folder: folder, polled: !index.isMultiple(of: 2)).state
            }
            let center = NotificationCenter()
            let resident = residentBytes()
            let heap = heapBytesInUse()
            let alive = (0..<max(count, 0)).map {
                makeWatchingStore(folder: folder, key: "counter\($0)", center: center, polled: !$0.isMultiple(of: 2))
            }
            for store in alive { _ = store.state }
            let bytesPerStore = (residentBytes() - resident) / max(count, 1)
            var heapPerStore = "unknown"
            if let heap, let now = heapBytesInUse() { heapPerStore = String((now - heap) / max(count, 1)) }
            during = (openDescriptors(), threads())
            say(
                "during fds+=\(during.fds - before.fds) threads=\(during.threads) stores=\(alive.count) watching=\(alive.filter { $0.watchMechanism != nil }.count) rss/store=\(bytesPerStore) heap/store=\(heapPerStore)"
            )
        }
        // The watcher's thread leaves on its own once the last watch is gone (at once, alone; the
        // bound only keeps a broken build from hanging, so it is far beyond a loaded machine's).
        var after = (fds: openDescriptors(), threads: threads())
        let giveUp = Date().addingTimeInterval(120)
        while after != before, Date() < giveUp {
            usleep(10_000)
            after = (openDescriptors(), threads())
        }
        say("before fds=\(before.fds) threads=\(before.threads) after fds=\(after.fds) threads=\(after.threads)")
        return after == before ? 0 : 1
    }

    /// The process's resident memory in bytes, from /proc/self/statm (0 where there is none).
    private static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The bytes `malloc` has handed out and not had back: what the stores hold, without the
    /// pages the allocator and the runtime touch on the side (which the resident size counts,
    /// and which vary with the machine's load). `nil` where the C library cannot say.
    private static func heapBytesInUse() -> Int? {
        let bytes = singleton_stores_heap_in_use()
        return bytes < 0 ? nil : Int(clamping: bytes)
    }

    private static func makeWatchingStore(
        folder: URL, key: String = "counter", center: NotificationCenter = NotificationCenter(), polled: Bool
    ) -> PersistentStoreCore<PersistedCounter> {
        PersistentStoreCore(
            key: key, default: PersistedCounter(), storage: FileStorage(folder: folder),
            channel: .stressCounter, center: center,
            watching: polled ? .polling(every: .milliseconds(10)) : .automatic)
    }

    private static func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    /// The watcher threads (named `SingletonStores`) of this process. Other threads come and go
    /// with the runtime (a sanitizer's, say), so only these are counted.
    private static func threads() -> Int {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return -1 }
        return tasks.filter { task in
            let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return name?.hasPrefix("SingletonStores") == true
        }.count
    }
}

extension NotificationChannel where Payload == StoreChange<PersistedCounter> {
    static let stressCounter = NotificationChannel("StorageStress.counter.changed")
}
