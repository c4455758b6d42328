import Foundation
import SingletonStoresTestSupport
import Testing

/// A process stopped while it holds a store's lock — a suspended app extension, a process
/// stopped with SIGSTOP — freezes no other: reads and launches go on, writes to that store fail
/// after the lock timeout naming the store and the process, and nothing is lost.
@Suite("A stopped process holding a store's lock", .hangLimit, .ownThread)
struct HeldLockBinaryTests {
    /// How long a command may take before it counts as hanging: generous, for a loaded machine.
    static let limit = Duration.seconds(30)

    /// Runs `demo-cli --data-dir <folder> arguments…`, killing it if it has not exited within
    /// ``limit``.
    static func runBounded(
        _ binary: DemoBinary, _ arguments: [String], environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ChildProcessResult {
        let child = try StartedChild.start(binary.makeProcess(arguments, environment: environment))
        let started = ContinuousClock.now
        var finished = false
        while ContinuousClock.now - started < limit {
            if kill(child.processIdentifier, 0) != 0 || isZombie(child.processIdentifier) {
                finished = true
                break
            }
            usleep(10_000)
        }
        if !finished {
            child.send(SIGKILL)
            Issue.record(
                "demo-cli \(arguments.joined(separator: " ")) did not finish within \(limit)", sourceLocation: sourceLocation)
        }
        return try child.finish()
    }

    /// Whether `pid` has exited and waits to be reaped.
    static func isZombie(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return status.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// The built `storage-stress` helper.
    static func stressHelper() throws -> URL {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let helper: URL = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        return helper
    }

    /// Starts `storage-stress hold-lock <folder> <key>`, waits until it holds the lock, and
    /// stops it.
    static func stoppedHolder(of key: String, in folder: URL) throws -> StartedChild {
        let process = Process()
        process.executableURL = try Self.stressHelper()
        process.arguments = ["hold-lock", folder.path(percentEncoded: false), key]
        let holder = try StartedChild.start(process)
        try holder.waitForLine { $0.hasPrefix("holding ") }  // the helper took the lock
        holder.send(SIGSTOP)
        return holder
    }

    /// Makes a receipt that was paid for but not credited: what a purchase killed between
    /// payment and credit leaves, which every launch tries to credit.
    static func leavePendingReceipt(in folder: URL) throws {
        let process = Process()
        process.executableURL = try Self.stressHelper()
        process.arguments = ["buy", folder.path(percentEncoded: false), "2", "--crash-at", "purchase.paid"]
        let run = try StartedChild.start(process).finish()
        try #require(run.wasKilled, "the purchase was not interrupted: \(run)")
    }

    @Test func commandsFinishWritesFailNamingTheHolderAndNothingIsLost() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "1"]).status == 0)
            try Self.leavePendingReceipt(in: binary.dataFolder)
            let holder = try Self.stoppedHolder(of: "purchases", in: binary.dataFolder)
            defer {
                holder.send(SIGKILL)
                holder.send(SIGCONT)
                _ = try? holder.finish()
            }

            for command in [["profile", "show"], ["boost", "status"], ["link", "help"], ["purchase", "show"]] {
                let run = try Self.runBounded(binary, command)
                #expect(run.status == 0 && run.reason == .exit, "\(command): \(run)")
            }
            // The ledger as last committed; the pending receipt waits for a later launch.
            #expect(try Self.runBounded(binary, ["purchase", "show"]).lines.first == "boost items: 1")

            let started = ContinuousClock.now
            let buy = try Self.runBounded(
                binary, ["purchase", "buy", "--items", "1"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": "0.5"])
            #expect(ContinuousClock.now - started >= .milliseconds(500))
            // Paid for and recorded, not credited yet: never "try again", which would buy twice.
            #expect(buy.status == 3 && buy.reason == .exit)
            #expect(
                buy.standardError.contains("the purchases store is held by another process (pid \(holder.processIdentifier))"),
                "\(buy.standardError)")
            #expect(buy.standardError.contains("It will be credited when the purchases store is free"))

            holder.send(SIGKILL)
            holder.send(SIGCONT)
            _ = try holder.finish()
            // The next launch credits both interrupted purchases: 1 + 2 + 1.
            let show = try Self.runBounded(binary, ["purchase", "show"])
            #expect(show.lines.first == "boost items: 4", "\(show)")
            let buyAgain = try Self.runBounded(binary, ["purchase", "buy", "--items", "1"])
            #expect(buyAgain.status == 0)
            #expect(try Self.runBounded(binary, ["purchase", "show"]).lines.first == "boost items: 5")
        }
    }

    @Test func boostWatchCountsDownAndEndsOnceWhileTheBoostLockIsHeld() throws {
        try withDemoBinary { binary in
            // A 100 s boost watched at 50× speed: about 2 s of real time, however slowly the
            // processes start (a 2 s boost could end before a sanitized watch began).
            #expect(try binary.run(["boost", "start", "--seconds", "100"]).status == 0)
            let holder = try Self.stoppedHolder(of: "boost", in: binary.dataFolder)
            defer {
                holder.send(SIGKILL)
                holder.send(SIGCONT)
                _ = try? holder.finish()
            }
            let watch = try Self.runBounded(binary, ["boost", "watch", "--until-end", "--speed", "50"])
            #expect(watch.status == 0 && watch.reason == .exit, "\(watch)")
            #expect(watch.lines.filter { $0 == "Boost: over." }.count == 1, "\(watch.lines)")
            #expect(watch.lines.contains { $0.hasPrefix("Boost: 00:0") }, "\(watch.lines)")
        }
    }
}
