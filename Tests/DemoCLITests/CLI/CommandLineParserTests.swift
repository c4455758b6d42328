import Testing
import Stores
@testable import demo_cli

@Suite("CommandLineParser")
struct CommandLineParserTests {
    /// Every command of the table, with its options, parses to the typed command.
    static let valid: [([String], Command)] = [
        ([], .showcase(ShowcaseOptions())),
        (["--seconds", "3", "--speed", "20"], .showcase(ShowcaseOptions(seconds: 3, speed: 20, naive: false))),
        (["--naive", "--seconds=5", "--speed=0.5"], .showcase(ShowcaseOptions(seconds: 5, speed: 0.5, naive: true))),
        (["boost", "start"], .boostStart(seconds: CommandTable.defaultBoostSeconds)),
        (["boost", "start", "--seconds", "60"], .boostStart(seconds: 60)),
        (["boost", "status"], .boostStatus),
        (["boost", "use"], .boostUse(seconds: CommandTable.defaultItemSeconds)),
        (["boost", "use", "--seconds", "90"], .boostUse(seconds: 90)),
        (["boost", "stop"], .boostStop),
        (["boost", "watch", "--speed", "4"], .boostWatch(speed: 4)),
        (["boost", "watch", "--speed", "0.001"], .boostWatch(speed: 0.001)),
        (["boost", "watch", "--speed=1000"], .boostWatch(speed: 1000)),
        (["boost", "watch"], .boostWatch(speed: 1, untilEnd: false)),
        (["boost", "watch", "--until-end", "--speed", "2"], .boostWatch(speed: 2, untilEnd: true)),
        (["profile", "show"], .profileShow),
        (["profile", "show", "--watch"], .profileWatch),
        (["profile", "set", "--gender", "female"], .profileSet(gender: .some(.female), nickname: nil)),
        (["profile", "set", "--gender", "none", "--nickname", "Aki"], .profileSet(gender: .some(nil), nickname: "Aki")),
        (["profile", "set", "--nickname", "-dash-"], .profileSet(gender: nil, nickname: "-dash-")),
        (["purchase", "buy"], .purchaseBuy(.boostItems(1))),
        (["purchase", "buy", "--items", "3"], .purchaseBuy(.boostItems(3))),
        (["purchase", "buy", "--premium-days", "30"], .purchaseBuy(.premium(days: 30))),
        (["purchase", "restore"], .purchaseRestore),
        (["purchase", "show"], .purchaseShow),
        (["purchase", "show", "--watch"], .purchaseWatch),
        (["link", "help"], .link(.help, gender: nil, target: nil)),
        (["link", "terms", "--gender", "male", "--target", "dev01"], .link(.terms, gender: .some(.male), target: .dev01)),
        (["link", "--target", "dev02", "privacy"], .link(.privacy, gender: nil, target: .dev02)),
        (["target", "show"], .targetShow),
        (["target", "set", "dev01"], .targetSet(.dev01)),
        (["flow"], .flow(.list)),
        (["flow", "--mermaid"], .flow(.mermaid(.registration))),
        (["flow", "login", "--mermaid"], .flow(.mermaid(.login))),
        (["flow", "email-sign-up"], .flow(.replay(route: "email-sign-up"))),
        (["flow", "full-cycle"], .flow(.replay(route: "full-cycle"))),
        (["flow", "force-logout", "--mermaid"], .flow(.mermaid(.login))),
        (["--help"], .help(path: [])),
        (["-h"], .help(path: [])),
        (["help"], .help(path: [])),
        (["help", "boost"], .help(path: ["boost"])),
        (["help", "boost", "use"], .help(path: ["boost", "use"])),
        (["boost", "--help"], .help(path: ["boost"])),
        (["boost", "use", "--help"], .help(path: ["boost", "use"])),
        (["link", "--help"], .help(path: ["link"])),
        (["flow", "login"], .flow(.routes(.login))),
        (["flow", "registration"], .flow(.routes(.registration))),
        (["profile", "set", "--gender", "unset"], .profileSet(gender: .some(nil), nickname: nil)),
        (["--version"], .version),
        (["--data-dir", "/tmp/x", "--version"], .version),
        (["data-dir"], .dataDirectory),
        (["reset"], .reset(confirmed: false)),
        (["reset", "--yes"], .reset(confirmed: true)),
        (["export"], .export(includingPersonal: false)),
        (["export", "--include-personal"], .export(includingPersonal: true)),
    ]

    @Test(arguments: valid)
    func parsesEveryCommand(_ arguments: [String], _ expected: Command) throws {
        #expect(try CommandLineParser.parse(arguments).command == expected)
    }

    @Test func everyTableRowIsCoveredByTheValidCases() {
        let covered = Set(
            Self.valid.compactMap { arguments, command -> [String]? in
                if case .help = command { return nil }
                return CommandTable.commands.map(\.path).filter { Array(arguments.prefix($0.count)) == $0 }.max {
                    $0.count < $1.count
                }
            })
        for spec in CommandTable.commands {
            #expect(covered.contains(spec.path), "no valid case for '\(spec.name)'")
        }
    }

    @Test func dataDirectoryIsGlobalAndGoesAnywhere() throws {
        #expect(
            try CommandLineParser.parse(["--data-dir", "/tmp/a", "boost", "status"])
                == Invocation(command: .boostStatus, dataDirectory: "/tmp/a"))
        #expect(
            try CommandLineParser.parse(["profile", "show", "--data-dir=/tmp/b"])
                == Invocation(command: .profileShow, dataDirectory: "/tmp/b"))
        #expect(try CommandLineParser.parse(["--seconds", "2", "--data-dir", "x"]).dataDirectory == "x")
    }

    /// Every kind of bad input, with the words its one-line message must contain.
    static let invalid: [([String], String)] = [
        (["foo"], "unknown command 'foo'"),
        (["boost"], "'boost' needs a command: start, status, use, stop, watch"),
        (["boost", "launch"], "unknown command 'boost launch'"),
        (["--foo"], "unknown option '--foo'"),
        (["boost", "start", "--foo"], "unknown option '--foo' for 'boost start'"),
        (["profile", "show", "--seconds", "3"], "unknown option '--seconds' for 'profile show'"),
        (["--seconds"], "option '--seconds' needs a value"),
        (["--seconds", "--naive"], "option '--seconds' needs a value"),
        (["--seconds", "-5"], "--seconds expects a whole number of seconds from 1 to 86400, got '-5'"),
        (["--seconds", "abc"], "got 'abc'"),
        (["--seconds", "0"], "got '0'"),
        (["--seconds", "1.5"], "got '1.5'"),
        (["--seconds", "86401"], "got '86401'"),
        (["--speed", "0"], "--speed expects a number from 0.001 to 1000, got '0'"),
        (["--speed", "1e-20"], "got '1e-20'"),
        (["--speed", "0.0009"], "got '0.0009'"),
        (["--speed", "1000.5"], "got '1000.5'"),
        (["--speed", "1e300"], "got '1e300'"),
        (["--speed", "-inf"], "got '-inf'"),
        (["--speed", "-1"], "got '-1'"),
        (["--speed", "nan"], "got 'nan'"),
        (["--speed", "inf"], "got 'inf'"),
        (["--speed", "fast"], "got 'fast'"),
        (["--naive=yes"], "option '--naive' takes no value"),
        (["profile", "show", "--watch=yes"], "option '--watch' takes no value"),
        (["boost", "status", "--watch"], "unknown option '--watch' for 'boost status'"),
        (["boost", "watch", "--until-end=now"], "option '--until-end' takes no value"),
        (["--seconds", "3", "--seconds", "4"], "option '--seconds' was given twice"),
        (["boost", "status", "now"], "unexpected argument 'now' for 'boost status'"),
        (["profile", "set"], "profile set needs --gender or --nickname"),
        (["profile", "set", "--gender", "other"], "--gender expects male, female or none, got 'other'"),
        (["purchase", "buy", "--items", "0"], "--items expects a whole number of items from 1 to 1000, got '0'"),
        (["purchase", "buy", "--items", "2", "--premium-days", "3"], "give either --items or --premium-days"),
        (["link"], "'link' needs help|terms|privacy"),
        (["link", "faq"], "unknown link 'faq'"),
        (["link", "help", "--target", "staging"], "unknown API target 'staging'"),
        (["target", "set", "dev03"], "unknown API target 'dev03'"),
        (["flow", "nowhere"], "unknown route 'nowhere'"),
        (["--data-dir", ""], "--data-dir needs a folder path"),
        (["help", "nothing"], "no help for unknown command 'nothing'"),
    ]

    @Test(arguments: invalid)
    func rejectsBadInputWithOneLine(_ arguments: [String], _ expected: String) {
        #expect {
            try CommandLineParser.parse(arguments)
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            let line = usage.description
            return line.contains(expected) && !line.contains("\n") && line.hasPrefix("demo-cli: ")
                && line.hasSuffix("--help')")
        }
    }

    @Test func errorHintNamesTheCommandsHelp() throws {
        let error = #expect(throws: UsageError.self) { try CommandLineParser.parse(["boost", "use", "--seconds", "x"]) }
        #expect(error?.description.hasSuffix("(try 'demo-cli boost use --help')") == true)
        let showcase = #expect(throws: UsageError.self) { try CommandLineParser.parse(["--speed", "0"]) }
        #expect(showcase?.description.hasSuffix("(try 'demo-cli --help')") == true)
    }
}
