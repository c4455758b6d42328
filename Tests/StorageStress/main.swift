// storage-stress: a second process for the cross-process and crash tests.
//
//   storage-stress <folder> <count> [counter|purchases]
//       counter (default): increments the "count" of the document "counter" <count> times, each
//       through a locked FileStorage.update. purchases: buys one boost item <count> times.
//       Two of these running at once must end at exactly 2 × <count>.
//   storage-stress use <folder> <seconds> [--crash-at POINT] [--trace]
//       Uses one boost item for a boost of <seconds>. Exit 0 started, 3 refused (a boost runs),
//       4 no item owned.
//   storage-stress buy <folder> <items> [--crash-at POINT] [--trace]
//       Buys <items> boost items through the local backend.
//   storage-stress churn <folder> <seed>
//       Buys, uses 1-second boosts and renames the profile in a loop until killed.
//   storage-stress report <folder>
//       Launches the stores on <folder> and prints what they show, as one JSON object.
//   storage-stress hold-lock <folder> <key>
//       Takes the lock of the store <key> (flock on <folder>/<key>.lock), prints "holding <pid>",
//       then sleeps until killed: a process stopped or hung while holding a lock.
//   storage-stress app-group <folder> add <n> [<times>] | show
//       A process that declares <folder> as the folder of every store at launch, as an app and its
//       widget declare their App Group container, then adds <n> to the "counter" document or
//       shows it (see AppGroup.swift).
//   storage-stress as-user <uid|-> <umask|-> <folder> <step>…
//       Storage steps run as another user (see AsUser.swift).
//   storage-stress migrate-counter <folder> [--crash-at POINT] [--trace]
//       Launches a store of the "counter" document with PersistedCounter.migrations (which
//       migrates an older document on disk) and prints its count.
//   storage-stress slide <folder> <window-ms> [<sets>]
//       A dragged slider on a store whose writes are coalesced within <window-ms>: sets the
//       "slider" document to 1, 2, 3, … every 2 ms until killed (or <sets> times, then exits
//       without flushing: the exit writes the last value, and exits 75 when it could not),
//       printing "set N" before each set and "durable N" after each write is in place (see
//       Slide.swift).
//   storage-stress follow-profile|write-profile|follow-counter|follow-boost|boost|watch-churn …
//       Stores that follow other processes (see Following.swift).
//
// --crash-at POINT kills the process with SIGKILL when it reaches the named fault-injection
// point; --pause-at POINT prints "paused at POINT" and stops the process (SIGSTOP) there, for
// the test to act and then send SIGCONT; --trace prints every point reached to standard error.
// Exit status: 0 on success, 1 on a storage or purchase error, 2 on bad arguments.
import Foundation
import SingletonStoresTestSupport
import SingletonStores
import Stores

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: see the comment at the top of Tests/StorageStress/main.swift\n".utf8))
    exit(2)
}

// The scenarios test what concurrent writers leave on disk, not how long one waits: on a machine
// slowed down by the thread sanitizer, a writer could otherwise give up after the default five
// seconds without progress. A test that is about the wait sets the variable itself.
if ProcessInfo.processInfo.environment["SINGLETON_STORES_LOCK_TIMEOUT"] == nil {
    setenv("SINGLETON_STORES_LOCK_TIMEOUT", "600", 1)
}

// storage-stress app-group …: a process that declares the folder of its stores; see AppGroup.swift.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "app-group" {
    exit(runAppGroup(Array(CommandLine.arguments.dropFirst(2))))
}

// storage-stress as-user …: steps run as another user; see AsUser.swift.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "as-user" {
    exit(runAsUser(Array(CommandLine.arguments.dropFirst(2))))
}

// storage-stress hold-lock <folder> <key>: holds the store's lock until killed.
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "hold-lock" {
    exit(holdLock(folder: CommandLine.arguments[2], key: CommandLine.arguments[3]))
}

var arguments = Array(CommandLine.arguments.dropFirst())
if let index = arguments.firstIndex(of: "--crash-at"), arguments.indices.contains(index + 1) {
    let point = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    FaultInjection.install { reached in
        if reached.name == point { kill(getpid(), SIGKILL) }
    }
}
if let index = arguments.firstIndex(of: "--pause-at"), arguments.indices.contains(index + 1) {
    let point = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
    FaultInjection.install { reached in
        guard reached.name == point else { return }
        FileHandle.standardOutput.write(Data("paused at \(point)\n".utf8))
        raise(SIGSTOP)
    }
}
if let index = arguments.firstIndex(of: "--trace") {
    arguments.remove(at: index)
    FaultInjection.install { reached in FileHandle.standardError.write(Data("point \(reached.name)\n".utf8)) }
}

do {
    switch arguments.first {
    case "follow-profile", "write-profile", "follow-counter", "follow-boost", "boost", "watch-churn":
        guard arguments.count >= 2 else { usage() }
        let folder = URL(filePath: arguments[1], directoryHint: .isDirectory)
        let number = arguments.count >= 3 ? Int(arguments[2]) : nil
        let watching = Following.watching(arguments)
        switch (arguments[0], number) {
        case ("follow-profile", let last?): exit(try Following.followProfile(folder: folder, last: last, watching: watching))
        case ("write-profile", let count?): try Following.writeProfile(folder: folder, count: count)
        case ("follow-counter", let final?): exit(Following.followCounter(folder: folder, final: final, watching: watching))
        case ("follow-boost", _): exit(Following.followBoost(folder: folder))
        case ("boost", _): exit(Following.changeBoost(folder: folder, Array(arguments.dropFirst(2))))
        case ("watch-churn", let count?): exit(Following.watchChurn(folder: folder, count: count))
        default: usage()
        }
    case "slide":
        guard (3...4).contains(arguments.count), let window = Int(arguments[2]) else { usage() }
        let sets = arguments.count == 4 ? Int(arguments[3]) : nil
        if arguments.count == 4, sets == nil { usage() }
        exit(
            Slide.run(
                folder: URL(filePath: arguments[1], directoryHint: .isDirectory), windowMilliseconds: window, sets: sets))
    case "migrate-counter":
        guard arguments.count == 2 else { usage() }
        let storage = FileStorage(folder: URL(filePath: arguments[1], directoryHint: .isDirectory))
        let counter = ValueStore(
            StoreDocument(key: "counter", default: PersistedCounter(), migrations: PersistedCounter.migrations), storage: storage,
            center: NotificationCenter(), watching: .off)
        print(counter.value.count)
    case "use", "buy", "churn", "report":
        guard arguments.count >= 2 else { usage() }
        let scenario = Scenario(folder: URL(filePath: arguments[1], directoryHint: .isDirectory))
        let number = arguments.count >= 3 ? Int(arguments[2]) : nil
        if arguments[0] != "report", number == nil { usage() }
        let value = number ?? 0
        switch arguments[0] {
        case "use": exit(try scenario.use(seconds: value))
        case "buy": try await scenario.buy(items: value)
        case "churn": try await scenario.churn(seed: UInt64(truncatingIfNeeded: value))
        default: try scenario.report()
        }
    default:
        try await legacy(arguments)
    }
} catch {
    FileHandle.standardError.write(Data("storage-stress: \(error)\n".utf8))
    exit(1)
}

/// The original modes: `<folder> <count> [counter|purchases]`.
func legacy(_ arguments: [String]) async throws {
    let mode = arguments.count == 3 ? arguments[2] : "counter"
    guard arguments.count == 2 || arguments.count == 3, let count = Int(arguments[1]), count >= 0,
        mode == "counter" || mode == "purchases"
    else { usage() }
    let storage = FileStorage(folder: URL(filePath: arguments[0], directoryHint: .isDirectory))
    switch mode {
    case "purchases":
        let purchases = PurchaseManager(storage: storage, center: NotificationCenter())
        for _ in 0..<count {
            try await purchases.buy(.boostItems(1))
            purchases.acknowledge()
        }
    default:
        for _ in 0..<count {
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
        }
    }
}

/// Takes `flock(LOCK_EX)` on `<folder>/<key>.lock`, says so, and sleeps until killed.
func holdLock(folder: String, key: String) -> Int32 {
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let descriptor = open("\(folder)/\(key).lock", O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
        FileHandle.standardError.write(Data("storage-stress: could not lock \(key): \(String(cString: strerror(errno)))\n".utf8))
        return 1
    }
    FileHandle.standardOutput.write(Data("holding \(getpid())\n".utf8))
    while true { sleep(3600) }
}
