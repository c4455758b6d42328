import Foundation

/// A command line, read and range-checked.
struct Command {
    enum Action: Equatable {
        case counterAdd(times: Int)
        case counterShow
        case walletTopUp(Int)
        case walletSpend(Int, times: Int)
        case walletShow
        case flagSet(name: String, on: Bool)
        case flagsShow
        case flagsWatch
        case boostStart(seconds: Int)
        case boostStop
        case boostStatus
        case boostWatch
    }

    struct UsageError: Error {
        let message: String
    }

    var action: Action
    var url: String
    var table = "singleton_stores"
    var showsRoundTrips = false

    static let maximumAmount = 1_000_000_000
    static let maximumTimes = 1_000_000

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> Command {
        var words: [String] = []
        var url = environment["SINGLETON_STORES_POSTGRES_URL"]
        var table: String?
        var times: Int?
        var seconds: Int?
        var roundTrips = false
        var index = 0
        func value(_ option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--url": url = try value(argument)
            case "--table": table = try value(argument)
            case "--times": times = try number(try value(argument), named: "--times", in: 1...maximumTimes)
            case "--seconds": seconds = try number(try value(argument), named: "--seconds", in: 1...86_400)
            case "--round-trips": roundTrips = true
            default:
                if argument.hasPrefix("--") { throw UsageError(message: "unknown option \(shown(argument))") }
                words.append(argument)
            }
            index += 1
        }
        let action: Action
        switch words {
        case ["counter", "add"]: action = .counterAdd(times: times ?? 1)
        case ["counter", "show"]: action = .counterShow
        case let w where w.count == 3 && w[0] == "wallet" && w[1] == "top-up":
            action = .walletTopUp(try number(w[2], named: "the amount", in: 1...maximumAmount))
        case let w where w.count == 3 && w[0] == "wallet" && w[1] == "spend":
            action = .walletSpend(try number(w[2], named: "the amount", in: 1...maximumAmount), times: times ?? 1)
        case ["wallet", "show"]: action = .walletShow
        case let w where w.count == 4 && w[0] == "flags" && w[1] == "set":
            let name = w[2]
            guard (1...64).contains(name.count),
                name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" })
            else { throw UsageError(message: "a flag's name is 1 to 64 letters, digits, - and _; got \(shown(name))") }
            guard w[3] == "on" || w[3] == "off" else { throw UsageError(message: "a flag is set on or off; got \(shown(w[3]))") }
            action = .flagSet(name: name, on: w[3] == "on")
        case ["flags", "show"]: action = .flagsShow
        case ["flags", "watch"]: action = .flagsWatch
        case ["boost", "start"]:
            guard let seconds else { throw UsageError(message: "boost start needs --seconds N (1 to 86400)") }
            action = .boostStart(seconds: seconds)
        case ["boost", "stop"]: action = .boostStop
        case ["boost", "status"]: action = .boostStatus
        case ["boost", "watch"]: action = .boostWatch
        default:
            throw UsageError(
                message: words.isEmpty ? "no command given" : "unknown command \(shown(words.joined(separator: " ")))")
        }
        switch action {
        case .counterAdd, .walletSpend: break
        default: if times != nil { throw UsageError(message: "--times goes with counter add and wallet spend only") }
        }
        if seconds != nil, action != .boostStart(seconds: seconds ?? 0) {
            throw UsageError(message: "--seconds goes with boost start only")
        }
        guard let url, !url.isEmpty else {
            throw UsageError(
                message:
                    "no database given: pass --url postgres://USER:PASSWORD@HOST:PORT/DATABASE or set SINGLETON_STORES_POSTGRES_URL"
            )
        }
        var command = Command(action: action, url: url, showsRoundTrips: roundTrips)
        if let table {
            let scalars = table.unicodeScalars
            let valid =
                (1...48).contains(scalars.count)
                && scalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
                && !(scalars.first.map { CharacterSet.decimalDigits.contains($0) } ?? true)
            guard valid else {
                throw UsageError(
                    message:
                        "--table takes 1 to 48 letters, digits and underscores, not starting with a digit; got \(shown(table))")
            }
            command.table = table
        }
        return command
    }

    static func number(_ text: String, named name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound); got \(shown(text))")
        }
        return value
    }

    /// Text from outside, quoted, with control characters escaped and cut at 80 characters.
    static func shown(_ text: String) -> String {
        let cut = text.count > 80 ? String(text.prefix(80)) + "…" : text
        return cut.debugDescription
    }
}
