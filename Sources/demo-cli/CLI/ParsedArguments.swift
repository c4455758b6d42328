import Stores

/// What the parser found on the command line for one command, before typing.
struct ParsedArguments: Sendable, Equatable {
    /// The command's words (`boost start`; empty for the showcase), for the help hint of errors.
    var command: String
    /// Values of the options that take one, by option name.
    var values: [String: String] = [:]
    /// The flags that were given.
    var flags: Set<String> = []
    /// Positional arguments, in order.
    var arguments: [String] = []

    /// Whether `flag` was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The whole number of seconds given with `option`, or `defaultValue`.
    ///
    /// - Throws: ``UsageError`` unless it is a whole number from 1 to `maximum`.
    func seconds(_ option: String, default defaultValue: Int, maximum: Int = 24 * 60 * 60) throws(UsageError) -> Int {
        try positiveInteger(option, default: defaultValue, maximum: maximum, unit: "seconds")
    }

    /// A whole number from 1 to `maximum` given with `option`, or `defaultValue`.
    func positiveInteger(_ option: String, default defaultValue: Int, maximum: Int, unit: String) throws(UsageError) -> Int {
        guard let text = values[option] else { return defaultValue }
        guard let number = Int(text), (1...maximum).contains(number) else {
            throw UsageError("\(option) expects a whole number of \(unit) from 1 to \(maximum), got '\(text)'", command: command)
        }
        return number
    }

    /// The clock speed given with `--speed`, or 1.
    ///
    /// - Throws: ``UsageError`` unless it is a number from 0.001 to 1000 (``ScaledClock/speedRange``).
    func speed() throws(UsageError) -> Double {
        guard let text = values["--speed"] else { return 1 }
        let range = ScaledClock<ContinuousClock>.speedRange
        guard let speed = Double(text), speed.isFinite, range.contains(speed) else {
            throw UsageError(
                "--speed expects a number from \(range.lowerBound) to \(Int(range.upperBound)), got '\(text)'", command: command)
        }
        return speed
    }

    /// The gender given with `--gender`: `nil` when absent, `.some(nil)` for `none`.
    ///
    /// `none` is the one spelling of "no gender" the CLI prints; `unset` (the name launch
    /// variants used to give it) is accepted as input too.
    func gender() throws(UsageError) -> Gender?? {
        guard let text = values["--gender"] else { return nil }
        switch text.lowercased() {
        case "male": return .some(.male)
        case "female": return .some(.female)
        case "none", "unset": return .some(nil)
        default: throw UsageError("--gender expects male, female or none, got '\(text)'", command: command)
        }
    }

    /// The API target named `text` (an option's value or a positional argument), if given.
    func target(_ text: String?) throws(UsageError) -> APITarget? {
        guard let text else { return nil }
        return try target(text)
    }

    /// The API target named `text`.
    func target(_ text: String) throws(UsageError) -> APITarget {
        guard let target = APITarget(rawValue: text.lowercased()) else {
            let names = APITarget.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("unknown API target '\(text)'; use one of \(names)", command: command)
        }
        return target
    }
}
