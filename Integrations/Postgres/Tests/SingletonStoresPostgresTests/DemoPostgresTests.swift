import Foundation
import PostgresNIO
import SingletonStores
import SingletonStoresPostgres
import Testing

/// demo-postgres as users run it: several processes on one database.
///
/// One test at a time: Foundation learns that a child ended when a socket the child inherited
/// closes, and a child started by another test at the same moment may inherit that socket too
/// and hold it for as long as it runs (a `flags watch`, say), so that the first test would wait
/// for the second's child.
@Suite(.serialized, .enabled(if: TestDatabase.isAvailable, TestDatabase.skipReason))
struct DemoPostgresTests {
    let table = TestDatabase.freshTable()

    /// Runs demo-postgres and checks that nothing it printed holds the password.
    func demo(_ arguments: [String], url: String? = TestDatabase.url) async throws -> Demo.Finished {
        let finished = try await Demo.run(arguments, url: url, table: table)
        Self.expectNoPassword(in: finished.output + finished.errors, of: url)
        return finished
    }

    static func expectNoPassword(in text: String, of url: String?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let password = url.flatMap({ URLComponents(string: $0)?.password }), !password.isEmpty else { return }
        #expect(!text.contains(password), "the password was printed", sourceLocation: sourceLocation)
    }

    @Test func threeProcessesAddingAHundredEachCountThreeHundred() async throws {
        let runs = try await withThrowingTaskGroup(of: Demo.Finished.self) { group in
            for _ in 0..<3 { group.addTask { try await demo(["counter", "add", "--times", "100", "--round-trips"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        var trips: [Int: Int] = [:]
        for run in runs {
            #expect(run.status == 0, "\(run)")
            #expect(run.lines.last == "acknowledged 100", "\(run)")
            for line in run.lines where line.hasPrefix("counter ") {
                let count = line.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
                trips[count, default: 0] += 1
            }
        }
        print("3 × 100 increments, updates by round trips: \(trips.sorted { $0.key < $1.key })")
        // One round trip when no other process changed the counter since; two when one did.
        #expect(trips.keys.allSatisfy { (1...2).contains($0) }, "\(trips)")
        #expect(trips.values.reduce(0, +) == 300)
        let shown = try await demo(["counter", "show"])
        #expect(shown.lines == ["counter 300"], "\(shown)")
    }

    @Test func threeProcessesSpendingAHundredEachFromAWalletOfOneHundredFifty() async throws {
        let topUp = try await demo(["wallet", "top-up", "150"])
        #expect(topUp.lines == ["balance 150"], "\(topUp)")
        let runs = try await withThrowingTaskGroup(of: Demo.Finished.self) { group in
            for _ in 0..<3 { group.addTask { try await demo(["wallet", "spend", "1", "--times", "100"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let spent = runs.map { $0.lines.filter { $0.hasPrefix("spent 1, balance") }.count }.reduce(0, +)
        let refused = runs.map { $0.lines.filter { $0.hasPrefix("refused:") }.count }.reduce(0, +)
        #expect(spent == 150)
        #expect(refused == 150)
        for run in runs { #expect(run.status == (run.lines.contains { $0.hasPrefix("refused:") } ? 1 : 0), "\(run)") }
        let shown = try await demo(["wallet", "show"])
        #expect(shown.lines == ["balance 0"], "\(shown)")
    }

    /// Money over a network that cuts connections at random points — in the handshake, a read, a
    /// write, its commit, the reading back of a commit's outcome: three processes each run
    /// `wallet spend 1` a hundred times from a wallet of 150. Every spend acknowledged is taken
    /// once, none is taken that was not, and a process that could not tell says so (exit 75):
    /// the balance is 150 less the spends acknowledged, less at most one a process that exited 75
    /// (or that PostgresNIO stopped, below).
    @Test func spendsOverConnectionsCutAtRandomTakeEachAcknowledgedSpendOnce() async throws {
        let descriptorsBefore = Self.openDescriptors()
        let (proxy, throughProxy) = try CuttingProxy.inFrontOfTheTestServer()
        defer { proxy.stop() }
        let topUp = try await demo(["wallet", "top-up", "150"])
        #expect(topUp.lines == ["balance 150"], "\(topUp)")
        proxy.cutAtRandom(probability: 0.05, seed: 20_261_130)
        let runs = try await withThrowingTaskGroup(of: [Demo.Finished].self) { group in
            for _ in 0..<3 {
                group.addTask {
                    var runs: [Demo.Finished] = []
                    for _ in 0..<100 { runs.append(try await demo(["wallet", "spend", "1"], url: throughProxy)) }
                    return runs
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let cuts = proxy.cuts
        proxy.stop()
        // The hundreds of processes and of the proxy's connections leave no descriptors behind in
        // this process.
        if let before = descriptorsBefore, let after = Self.openDescriptors() {
            #expect(after - before < 100, "\(after - before) more descriptors open than before")
        }
        let acknowledged = runs.filter { $0.status == 0 && $0.lines.last?.hasPrefix("spent 1, balance") == true }.count
        let refused = runs.filter { $0.status == 1 && $0.lines.last?.hasPrefix("refused:") == true }.count
        let unreachable = runs.filter { $0.status == 69 }.count
        // PostgresNIO (1.33) stops a process on a precondition when a connection is cut in the
        // middle of a result, about once in a thousand cuts: the process ends as if killed, and a
        // spend it was committing may be taken or not, as for a 75. Known, not this library's.
        let stopped = runs.filter { ![0, 1, 69, 75].contains($0.status) && $0.errors.contains("RowStreamStateMachine") }
        for run in stopped {
            withKnownIssue("PostgresNIO stops the process when a connection is cut in the middle of a result") {
                Issue.record("\(run.errors.prefix(300))")
            }
        }
        let unknown = runs.filter { $0.status == 75 }.count + stopped.count
        #expect(
            acknowledged + refused + unknown + unreachable == 300, "\(runs.filter { ![0, 1, 69, 75].contains($0.status) })")
        #expect(acknowledged <= 150)
        let shown = try await demo(["wallet", "show"])
        let balance = try #require(shown.lines.last.flatMap { Int($0.dropFirst("balance ".count)) }, "\(shown)")
        #expect(
            (150 - acknowledged - unknown...150 - acknowledged).contains(balance),
            "\(acknowledged) acknowledged, \(unknown) unknown, balance \(balance)")
        // Nothing refused while the wallet could still cover it: a refusal came once it was empty.
        if refused > 0 { #expect(balance == 0) }
        #expect(cuts >= 30, "the proxy cut \(cuts) connections: too few to try much")
        print(
            "Spends over cut connections: \(cuts) cuts, \(acknowledged) acknowledged, \(refused) refused, \(unknown - stopped.count) unknown, \(stopped.count) stopped by PostgresNIO, \(unreachable) out of reach, balance \(balance)"
        )
    }

    @Test func aSpendTheWalletCantCoverIsRefusedWithExitOne() async throws {
        let refused = try await demo(["wallet", "spend", "5"])
        #expect(refused.status == 1)
        #expect(refused.lines == ["refused: the wallet holds 0, short of 5; nothing was spent"])
    }

    @Test func aDatabaseOutOfReachIsExit69NamingHostAndPortWithinFifteenSeconds() async throws {
        let url = "postgres://app:very-secret-\(UUID().uuidString.prefix(6))@127.0.0.1:9/app?sslmode=disable"
        let clock = ContinuousClock()
        let started = clock.now
        let run = try await demo(["counter", "add"], url: url)
        let took = clock.now - started
        #expect(run.status == 69, "\(run)")
        #expect(run.errors.contains("127.0.0.1:9"), "\(run)")
        #expect(took < .seconds(15), "took \(took)")
    }

    @Test func badCommandLinesAreUsageErrors() async throws {
        for arguments in [
            ["counter", "add", "--times", "0"], ["wallet", "spend", "-3"], ["boost", "start"],
            ["flags", "set", "x\u{1b}y", "on"], ["flags", "set", "x\u{202E}y\u{9B}", "on"], ["nope\u{2066}"],
        ] {
            let run = try await demo(arguments)
            #expect(run.status == 64, "\(arguments): \(run)")
            #expect(!Self.holdsARawControl(run.errors), "a control character was printed as is: \(run.errors.debugDescription)")
        }
        // A table name that is not a plain identifier is refused before anything is connected.
        let badTable = try await Demo.run(["counter", "show"], table: "x;drop table y")
        #expect(badTable.status == 64, "\(badTable)")
        #expect(badTable.errors.contains("--table takes"), "\(badTable)")
    }

    /// How many descriptors this process has open, where the system lists them.
    static func openDescriptors() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
    }

    /// Whether `text` holds a character that moves the cursor, changes a terminal's state or
    /// reorders a line, other than the line breaks between lines.
    static func holdsARawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            switch $0.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    /// Flag names another program stored, which `flags set` would refuse, are printed with their
    /// control and formatting characters escaped: by `flags show`, and by `flags watch` as they change.
    @Test func storedTextIsPrintedWithItsControlCharactersEscaped() async throws {
        guard let url = TestDatabase.url else { throw TestFailure("no URL") }
        let hostile = "a\u{1B}]0;owned\u{07}\u{202E}b\u{9B}2J\nc"
        let watch = try Demo.Running(["flags", "watch"], url: url, table: table)
        defer { watch.process.terminate() }
        try await withRunningStorages(url: url, options: .init(table: table)) { storages in
            let flags = try await SharedValueStore(
                key: "flags", default: [String: Bool](), storage: storages[0], follows: false)
            try await flags.update { $0[hostile] = true }
        }
        let shown = try await demo(["flags", "show"])
        #expect(shown.status == 0, "\(shown)")
        #expect(!Self.holdsARawControl(shown.output), "\(shown.output.debugDescription)")
        #expect(shown.lines.last == #"flags: a\u{1B}]0;owned\u{7}\u{202E}b\u{9B}2J\nc=on"#, "\(shown)")
        var heard: [String] = []
        for await (line, _) in watch.lines {
            heard.append(line)
            if line.hasSuffix("=on") { break }
        }
        watch.process.terminate()
        let watched = await watch.finished()
        #expect(heard.last == shown.lines.last, "\(heard)")
        #expect(!Self.holdsARawControl(watched.output), "\(watched.output.debugDescription)")
    }

    /// A boost started in one process is the boost of every other: `boost status` shows its time
    /// left until it is stopped.
    @Test func aBoostStartedInOneProcessIsShownByAnother() async throws {
        let started = try await demo(["boost", "start", "--seconds", "90"])
        #expect(started.status == 0, "\(started)")
        #expect(started.lines.last == "boost started: 1:30 left", "\(started)")
        let status = try await demo(["boost", "status"])
        #expect(status.status == 0, "\(status)")
        #expect(["boost 1:30 left", "boost 1:29 left", "boost 1:28 left"].contains(status.lines.last ?? ""), "\(status)")
        let stopped = try await demo(["boost", "stop"])
        #expect(stopped.lines.last == "boost stopped", "\(stopped)")
        let after = try await demo(["boost", "status"])
        #expect(after.lines.last == "boost not running", "\(after)")
    }

    /// A boost started and stopped by another process is shown by `boost watch` within 50 ms (p99).
    @Test func aBoostWatchFollowsStartsAndStopsOfAnotherProcess() async throws {
        let watch = try Demo.Running(["boost", "watch"], url: TestDatabase.url, table: table)
        defer { watch.interrupt() }
        #expect(await watch.line { $0 == "boost not running" } != nil)
        var delays: [Duration] = []
        try await withRunningStorages(options: .init(table: table)) { storages in
            let boost = try await SharedCountdownStore(key: "boost", storage: storages[0], follows: false)
            try await Task.sleep(for: .milliseconds(200))
            for _ in 0..<50 {
                let started = ContinuousClock.now
                try await boost.start(duration: .seconds(600))
                guard let shown = await watch.line(where: { $0.hasPrefix("boost 10:00 left") || $0.hasPrefix("boost 9:59 left") })
                else {
                    Issue.record("the watch did not show the start")
                    return
                }
                delays.append(shown.at - started)
                let stopped = ContinuousClock.now
                try await boost.stop()
                guard let gone = await watch.line(where: { $0 == "boost not running" }) else {
                    Issue.record("the watch did not show the stop")
                    return
                }
                delays.append(gone.at - stopped)
            }
        }
        let sorted = delays.sorted()
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[Int((Double(sorted.count) * 0.99).rounded(.up)) - 1]
        print("boost watch: \(sorted.count) changes followed, p50 \(p50), p99 \(p99), worst \(sorted.last ?? .zero)")
        #expect(p99 <= .milliseconds(50))
    }
}

/// The tests that restart or cut off the server, each on a server of its own.
extension DemoPostgresTests {
    @Test func aServerRestartedDuringIncrementsLosesNoneAndCountsNoneTwice() async throws {
        try await withServerRestartedDuring(
            ["counter", "add", "--times", "100", "--round-trips"],
            underWay: { $0 == "counter 40" || $0.hasPrefix("counter 4") }
        ) { server, restarted in
            var acknowledged = 0
            for finished in restarted.finished {
                let last = finished.lines.last { $0.hasPrefix("acknowledged ") }
                acknowledged += last.flatMap { Int($0.dropFirst("acknowledged ".count)) } ?? 0
            }
            let shown = try await Demo.run(["counter", "show"], url: server.url, table: table)
            print("restart during increments: \(acknowledged) acknowledged, \(restarted), \(shown.output)")
            #expect(restarted.runningAfterTheStart >= 1, "the restart did not fall during the increments")
            #expect(shown.lines == ["counter \(acknowledged)"])
            #expect(acknowledged == 300)
        }
    }

    /// Money across a restart: every spend a process acknowledged left the wallet once, none it
    /// refused did, and nothing else did. Three processes spend 1 a hundred times each from 150
    /// while the server is stopped at once and started again.
    @Test func aServerRestartedDuringSpendsTakesEachAcknowledgedSpendOnceAndNoOther() async throws {
        try await withServerRestartedDuring(
            ["wallet", "spend", "1", "--times", "100", "--round-trips"],
            before: { server in
                let topUp = try await Demo.run(["wallet", "top-up", "150"], url: server.url, table: table)
                #expect(topUp.lines == ["balance 150"], "\(topUp)")
            },
            // Once a fifth of the money is spent.
            underWay: { line in
                guard line.hasPrefix("spent 1, balance "), let balance = Int(line.dropFirst(17).prefix { $0.isNumber }) else {
                    return false
                }
                return balance <= 120
            }
        ) { server, restarted in
            var spent = 0
            var refused = 0
            for finished in restarted.finished {
                let ownRefusals = finished.lines.filter { $0.hasPrefix("refused: ") }.count
                spent += finished.lines.filter { $0.hasPrefix("spent 1, balance ") }.count
                refused += ownRefusals
                #expect(finished.status == (ownRefusals > 0 ? 1 : 0), "\(finished)")
                #expect(finished.lines.last == "spent \(100 - ownRefusals) times, refused \(ownRefusals) times", "\(finished)")
            }
            let shown = try await Demo.run(["wallet", "show"], url: server.url, table: table)
            print("restart during spends: \(spent) spent, \(refused) refused, \(restarted), \(shown.output)")
            #expect(spent == 150)
            #expect(refused == 150)
            #expect(shown.lines == ["balance 0"])
        }
    }

    /// What three processes did while their server restarted.
    struct RestartedRuns: CustomStringConvertible {
        let finished: [Demo.Finished]
        let runningAtTheStop: Int
        let runningAfterTheStart: Int

        /// The most round trips one change took, by the processes' `--round-trips` output.
        var slowest: Int { finished.flatMap(\.lines).compactMap(RestartedRuns.roundTrips).max() ?? 0 }

        var description: String {
            "\(runningAtTheStop) running at the stop, \(runningAfterTheStart) after the start, "
                + "at most \(slowest) round trips a change"
        }

        /// The round trips a line of `--round-trips` output names ("… (3 round trips)"), if any.
        static func roundTrips(_ line: String) -> Int? {
            guard line.hasSuffix(" round trips)"), let open = line.lastIndex(of: "(") else { return nil }
            return Int(line[line.index(after: open)...].prefix { $0.isNumber })
        }
    }

    /// Runs three `demo-postgres` processes of `arguments` on a server of their own, stops the
    /// server at once (no goodbye to its clients) and starts it again once the first process has
    /// printed a line `underWay` accepts, and gives `check` what they did. Every process must
    /// have been running at the stop, printed no password, and left no outcome unknown (exit 75).
    func withServerRestartedDuring(
        _ arguments: [String], before: (OwnServer) async throws -> Void = { _ in },
        underWay: @escaping @Sendable (String) -> Bool, check: (OwnServer, RestartedRuns) async throws -> Void
    ) async throws {
        try await withOwnServer { server in
            try await before(server)
            let runs = (0..<3).compactMap { _ in try? Demo.Running(arguments, url: server.url, table: table) }
            #expect(runs.count == 3)
            _ = await runs[0].line(where: underWay)
            let runningAtTheStop = runs.filter { $0.process.isRunning }.count
            try await server.restart()
            let runningAfterTheStart = runs.filter { $0.process.isRunning }.count
            var finished: [Demo.Finished] = []
            for run in runs {
                let one = await run.finished()
                Self.expectNoPassword(in: one.output + one.errors, of: server.url)
                #expect(one.status != 75, "an outcome stayed unknown: \(one)")
                finished.append(one)
            }
            #expect(runningAtTheStop == 3, "the restart did not fall while the processes ran")
            try await check(
                server,
                RestartedRuns(finished: finished, runningAtTheStop: runningAtTheStop, runningAfterTheStart: runningAfterTheStart))
        }
    }

    @Test func aFlagsWatchKeepsFollowingAfterItsListenerIsCutOffAndTheServerRestarts() async throws {
        try await withOwnServer { server in
            let watch = try Demo.Running(["flags", "watch"], url: server.url, table: table)
            defer { watch.interrupt() }
            #expect(await watch.line { $0 == "flags: none set" } != nil)
            func set(_ name: String) async throws -> Bool {
                let run = try await Demo.run(["flags", "set", name, "on"], url: server.url, table: table)
                return run.status == 0
            }
            #expect(try await set("alpha"))
            #expect(await watch.line { $0.contains("alpha=on") } != nil)
            // Its LISTEN connection ended by the server.
            let terminated = try await Demo.run(["flags", "show"], url: server.url, table: table)
            #expect(terminated.status == 0)
            try await OwnServer.psql(
                server.url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await set("beta"))
            #expect(await watch.line { $0.contains("beta=on") } != nil)
            // The whole server restarted.
            try await server.restart()
            #expect(try await set("gamma"))
            #expect(await watch.line { $0.contains("gamma=on") } != nil)
        }
    }
}
