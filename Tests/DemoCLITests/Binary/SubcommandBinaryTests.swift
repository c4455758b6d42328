import SingletonStoresTestSupport
import Foundation
import Testing

/// Every subcommand through the built binary, each test with its own data folder; state
/// persists between the invocations of one test.
@Suite("Subcommands through the binary", .hangLimit, .ownThread)
struct SubcommandBinaryTests {
    @Test func aBoughtItemIsUsedInALaterRun() throws {
        try withDemoBinary { binary in
            let none = try binary.run(["boost", "use"])
            #expect(none.status == 1)
            #expect(none.errorLines == ["demo-cli: You have no boost items. Buy some first (purchase buy)."])

            let buy = try binary.run(["purchase", "buy", "--items", "1"])
            #expect(buy.status == 0)
            #expect(buy.lines == ["Bought 1 boost item. You own 1 boost item; no premium."])

            let use = try binary.run(["boost", "use", "--seconds", "120"])
            #expect(use.status == 0)
            #expect(
                use.lines.first?.hasPrefix("Used a boost item: 02:00 left. 0 boost items left.") == true
                    || use.lines.first?.hasPrefix("Used a boost item: 01:") == true)

            let status = try binary.run(["boost", "status"])
            #expect(status.status == 0)
            #expect(status.lines.first?.hasPrefix("Boost: 0") == true)
            #expect(status.lines.first?.hasSuffix("0 boost items owned.") == true)

            let again = try binary.run(["boost", "use"])
            #expect(again.status == 1)
            #expect(again.errorLines.count == 1)
        }
    }

    @Test func usingAnItemWhileABoostRunsIsRefusedAndCostsNothing() throws {
        try withDemoBinary { binary in
            _ = try binary.run(["purchase", "buy", "--items", "2"])
            _ = try binary.run(["boost", "start", "--seconds", "300"])
            let refused = try binary.run(["boost", "use"])
            #expect(refused.status == 1)
            #expect(refused.standardError.contains("A boost is already running"))
            let show = try binary.run(["purchase", "show"])
            #expect(show.lines.first == "boost items: 2")
        }
    }

    @Test func aStartedBoostPersistsAndStops() throws {
        try withDemoBinary { binary in
            let start = try binary.run(["boost", "start", "--seconds", "600"])
            #expect(start.status == 0)
            #expect(start.lines == ["Boost started: 10:00 left."])
            let status = try binary.run(["boost", "status"])
            let line = try #require(status.lines.first)
            #expect(line.hasPrefix("Boost: 10:00 left") || line.hasPrefix("Boost: 09:"))
            let stop = try binary.run(["boost", "stop"])
            #expect(stop.lines == ["Boost stopped."])
            #expect(try binary.run(["boost", "status"]).lines == ["No boost is running. 0 boost items owned."])
            #expect(try binary.run(["boost", "stop"]).lines == ["No boost was running."])
        }
    }

    /// `--until-end` keeps the behaviour scripts rely on: no boost, one line and done; a boost,
    /// counted down to its end, then done. (Without it, `boost watch` follows until Ctrl-C: see
    /// ``LiveViewBinaryTests``.)
    @Test func watchUntilEndCountsThePersistedBoostDownToItsEnd() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["boost", "watch", "--until-end"]).lines == ["No boost is running."])
            // Long enough to still run however slowly the watch starts and draws its first line
            // on a loaded machine (a process may wait seconds for a core): counted down 200
            // times faster, it takes 5 s.
            _ = try binary.run(["boost", "start", "--seconds", "1000"])
            let watch = try binary.run(["boost", "watch", "--until-end", "--speed", "200"])
            #expect(watch.status == 0)
            #expect(watch.lines.last == "Boost: over.")
            #expect(watch.lines.contains("Boost: 00:00"))
            #expect(!watch.standardOutput.contains("\u{1B}"))
        }
    }

    @Test func profileIsSetInOneRunAndShownInTheNext() throws {
        try withDemoBinary { binary in
            let empty = try binary.run(["profile", "show"])
            #expect(empty.lines == ["nickname: (not set)", "gender: none", "rank: regular", "beta: no", "id: (none)"])
            let set = try binary.run(["profile", "set", "--gender", "male", "--nickname", "Minh"])
            #expect(set.status == 0)
            #expect(set.lines.first == "Profile saved.")
            let show = try binary.run(["profile", "show"])
            #expect(show.lines.prefix(2) == ["nickname: Minh", "gender: male (gender_code=1)"])
            _ = try binary.run(["profile", "set", "--gender", "none"])
            #expect(try binary.run(["profile", "show"]).lines.prefix(2) == ["nickname: Minh", "gender: none"])
        }
    }

    @Test func purchasesAreBoughtShownAndRestored() throws {
        try withDemoBinary { binary in
            let premium = try binary.run(["purchase", "buy", "--premium-days", "30"])
            #expect(premium.status == 0)
            #expect(premium.lines.first?.hasPrefix("Bought 30 days of premium. You own 0 boost items; premium until ") == true)
            _ = try binary.run(["purchase", "buy", "--items", "3"])
            let show = try binary.run(["purchase", "show"])
            #expect(show.lines.count == 4)
            #expect(show.lines[0] == "boost items: 3")
            #expect(show.lines[1].hasPrefix("premium: premium until "))
            #expect(show.lines[2] == "flow: idle")
            // The ledger is lost. A launch credits only receipts never credited, so nothing comes
            // back by itself (a ledger kept aside must not lead to a receipt credited twice); a
            // restore gives back premium (the same end date), not boost items, which are
            // consumed once credited.
            try FileManager.default.removeItem(at: binary.dataFolder.appending(path: "purchases.json"))
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 0")
            let restore = try binary.run(["purchase", "restore"])
            #expect(restore.status == 0)
            #expect(
                restore.lines.first?.hasPrefix("Restored 1 purchase. You own 0 boost items; premium until ") == true,
                "\(restore)")
            let premiumEnd = show.lines[1].dropFirst("premium: premium until ".count)
            #expect(restore.lines.first?.hasSuffix(premiumEnd + ".") == true, "the same end date: \(restore)")
            let again = try binary.run(["purchase", "restore"])
            #expect(again.lines.first?.hasPrefix("Restored 0 purchases. You own 0 boost items;") == true, "\(again)")
        }
    }

    @Test func linksUseTheStoredGenderAndTargetUnlessGiven() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["link", "help"]).lines == ["https://www.hoge.com/api/web/help"])
            _ = try binary.run(["profile", "set", "--gender", "female"])
            #expect(try binary.run(["link", "help"]).lines == ["https://www.hoge.com/api/web/help?gender_code=2"])
            #expect(try binary.run(["target", "set", "dev01"]).lines == ["API target: dev01 (https://dev01.hoge.com)"])
            #expect(try binary.run(["target", "show"]).lines == ["API target: dev01 (https://dev01.hoge.com)"])
            #expect(try binary.run(["link", "terms"]).lines == ["https://dev01.hoge.com/api/web/terms?gender_code=2"])
            #expect(
                try binary.run(["link", "privacy", "--gender", "male", "--target", "dev02"]).lines
                    == ["https://dev02.hoge.com/api/web/privacy?gender_code=1"])
            #expect(try binary.run(["link", "help", "--gender", "none"]).lines == ["https://dev01.hoge.com/api/web/help"])
        }
    }

    @Test func flowListsReplaysAndDraws() throws {
        try withDemoBinary { binary in
            let list = try binary.run(["flow"])
            #expect(list.status == 0)
            for route in ["email-sign-up", "mercari-sms", "facebook", "full-cycle", "force-logout"] {
                #expect(list.lines.contains("  \(route)"))
            }
            let replay = try binary.run(["flow", "email-sign-up"])
            #expect(replay.status == 0)
            #expect(replay.lines.count == 7)
            #expect(replay.lines[1].hasPrefix("  1. showRegisterRoot: root → registerRoot"))
            #expect(replay.lines.last == "Ended at home.")
            let login = try binary.run(["flow", "force-logout"])
            #expect(login.lines.last == "Ended at loggedOut.")
            #expect(login.lines.contains("  2. forceLogout: loggingIn → loggingOut"))
            let mermaid = try binary.run(["flow", "--mermaid"])
            #expect(mermaid.lines.first == "stateDiagram-v2")
            #expect(mermaid.lines.contains("    [*] --> root"))
            #expect(try binary.run(["flow", "login", "--mermaid"]).lines.contains("    [*] --> loggedOut"))
            // A flow's name lists that flow's routes only.
            let loginRoutes = try binary.run(["flow", "login"])
            #expect(loginRoutes.status == 0)
            #expect(loginRoutes.lines.contains("  force-logout") && loginRoutes.lines.contains("  full-cycle"))
            #expect(!loginRoutes.lines.contains("  email-sign-up"))
            #expect(!loginRoutes.standardOutput.contains("registration routes"))
        }
    }

    @Test func helpIsPrintedForTheProgramAndEveryCommand() throws {
        try withDemoBinary { binary in
            let program = try binary.run(["--help"])
            #expect(program.status == 0)
            #expect(program.standardOutput.contains("USAGE"))
            for command in [
                ["boost"], ["boost", "use"], ["profile", "set"], ["purchase", "buy"], ["link"], ["flow"], ["target", "set"],
            ] {
                let help = try binary.run(command + ["--help"])
                #expect(help.status == 0)
                #expect(help.standardOutput.contains("demo-cli \(command.joined(separator: " "))"))
            }
        }
    }

    /// The acceptance list of bad input: each exits 64 with one line on standard error.
    @Test(arguments: [
        ["foo"], ["--foo"], ["boost", "start", "--bogus"], ["--seconds"], ["--seconds", "-5"],
        ["--seconds", "abc"], ["--speed", "0"], ["boost"], ["link"], ["purchase", "buy", "--items", "x"],
    ])
    func badInputExits64WithOneLine(_ arguments: [String]) throws {
        try withDemoBinary { binary in
            let result = try binary.run(arguments)
            #expect(result.reason == .exit && result.status == 64)
            #expect(result.standardOutput.isEmpty)
            #expect(result.errorLines.count == 1)
            #expect(result.errorLines.first?.hasPrefix("demo-cli: ") == true)
            #expect(result.errorLines.first?.hasSuffix("--help')") == true)
        }
    }

    @Test func aCorruptedDataFileIsKeptAsideWithAClearWarning() throws {
        try withDemoBinary { binary in
            _ = try binary.run(["profile", "set", "--nickname", "Aki"])
            let file = binary.dataFolder.appending(path: "profile.json")
            try Data("{\"formatVersion\": 1, \"value\": {\"nick".utf8).write(to: file)
            let result = try binary.run(["profile", "show"])
            #expect(result.reason == .exit && result.status == 0)
            #expect(result.lines.first == "nickname: (not set)")
            #expect(result.errorLines.count == 1)
            let warning = try #require(result.errorLines.first)
            #expect(warning.hasPrefix("demo-cli: warning: The saved data at "))
            #expect(warning.contains("profile.json is damaged"))
            let kept = try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false))
            #expect(kept.contains { $0.hasPrefix("profile~corrupt-") })
            // The next run starts cleanly from the defaults.
            #expect(try binary.run(["profile", "show"]).standardError.isEmpty)
        }
    }

    @Test func theDataFolderCanComeFromTheEnvironment() throws {
        try withDemoBinary { binary in
            let environment = ["SINGLETON_STORES_DATA_DIR": binary.dataFolder.path(percentEncoded: false)]
            _ = try binary.run(["purchase", "buy", "--items", "4"], withDataFolder: false, environment: environment)
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 4")
        }
    }

    @Test func aHostileNicknameStoredByOneRunCannotForgeTheNextRunsOutput() throws {
        try withDemoBinary { binary in
            let hostile = "Aki\ngender: female (gender_code=2)\nrank: gold\u{1B}]0;owned\u{07}"
            let set = try binary.run(["profile", "set", "--nickname", hostile])
            #expect(set.status == 0)
            let show = try binary.run(["profile", "show"])
            #expect(show.reason == .exit && show.status == 0)
            #expect(!show.standardOutput.utf8.contains(0x1B), "no ESC byte reaches the terminal")
            #expect(!show.standardOutput.utf8.contains(0x07))
            #expect(
                show.lines == [
                    #"nickname: Aki\ngender: female (gender_code=2)\nrank: gold\u{1B}]0;owned\u{7}"#,
                    "gender: none", "rank: regular", "beta: no", "id: (none)",
                ])
        }
    }
}

@Suite("boost use from several processes", .ownThread)
struct ConcurrentBoostUseBinaryTests {
    /// Eight `demo-cli boost use` at once on an idle boost: one spends an item and starts the
    /// boost; the others are told a boost runs and spend nothing, and so are eight more.
    @Test func eightConcurrentUsesSpendOneItem() throws {
        try withDemoBinary { binary in
            _ = try binary.run(["purchase", "buy", "--items", "8"])
            func useTogether() throws -> [Int32?] {
                let processes = try (0..<8).map { _ in
                    let process = try binary.makeProcess(["boost", "use", "--seconds", "86400"])
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    return process
                }
                return try BuiltProduct.runSimultaneously(processes)
            }
            let first = try useTogether()
            #expect(first.filter { $0 == 0 }.count == 1 && first.allSatisfy { $0 != nil }, "\(first)")
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 7")
            let second = try useTogether()
            #expect(second.allSatisfy { $0 != nil && $0 != 0 }, "\(second)")
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 7")
            // The one boost of 24 hours runs; how much of it has gone by depends on the machine's
            // load (real time passes between the runs), not on the test.
            let status = try binary.run(["boost", "status"]).lines.first ?? ""
            #expect(status.prefixMatch(of: /Boost: 2[34]:\d\d:\d\d left\./) != nil, "\(status)")
        }
    }
}
