/// Turns the command line into an ``Invocation``, driven by ``CommandTable``.
///
/// ```swift
/// let invocation = try CommandLineParser.parse(["boost", "use", "--seconds", "60"])
/// // Invocation(command: .boostUse(seconds: 60), dataDirectory: nil)
/// ```
///
/// Grammar: `[global options] [command words] [arguments and options in any order]`.
/// `--name value` and `--name=value` are both accepted; `--help` (or `-h`) anywhere asks for the
/// help of the command named so far; `help [command…]` does the same.
enum CommandLineParser {
    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``UsageError`` for an unknown command or option, a missing or bad value, or an
    ///   unexpected argument.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var remaining = arguments[...]
        var globals = ParsedArguments(command: "")
        // Global options may come before the command words.
        while let first = remaining.first, first.hasPrefix("-"), first != "-" {
            let (name, inline) = split(first)
            if name == versionOption.name {
                guard inline == nil else { throw UsageError("option '--version' takes no value") }
                return Invocation(command: .version, dataDirectory: try dataDirectory(globals))
            }
            guard let option = OptionSpec.globals.first(where: { $0.name == name }) ?? helpAlias(name) else { break }
            remaining = remaining.dropFirst()
            try take(option, inline: inline, from: &remaining, into: &globals, command: "")
        }
        if globals.has("--help") {
            return Invocation(command: .help(path: []), dataDirectory: try dataDirectory(globals))
        }

        let words = Array(remaining.prefix { !$0.hasPrefix("-") || $0 == "-" })
        if words.first == "help" {
            return Invocation(
                command: .help(path: try helpPath(Array(words.dropFirst()))), dataDirectory: try dataDirectory(globals))
        }
        let spec: CommandSpec
        switch try match(words) {
        case .command(let found):
            spec = found
        case .group(let group, let names):
            if remaining.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
                return Invocation(command: .help(path: [group]), dataDirectory: try dataDirectory(globals))
            }
            throw UsageError("'\(group)' needs a command: \(names)", command: group)
        }
        remaining = remaining.dropFirst(spec.path.count)

        var parsed = globals
        parsed.command = spec.path.joined(separator: " ")
        while let token = remaining.popFirst() {
            guard token.hasPrefix("-"), token != "-" else {
                parsed.arguments.append(token)
                continue
            }
            let (name, inline) = split(token)
            guard let option = spec.option(named: name) ?? helpAlias(name) else {
                let place = spec.path.isEmpty ? "" : " for '\(spec.name)'"
                throw UsageError("unknown option '\(name)'\(place)", command: spec.path.joined(separator: " "))
            }
            try take(option, inline: inline, from: &remaining, into: &parsed, command: spec.path.joined(separator: " "))
        }
        let directory = try dataDirectory(parsed)
        if parsed.has("--help") {
            return Invocation(command: .help(path: spec.path), dataDirectory: directory)
        }
        guard spec.argumentCount.contains(parsed.arguments.count) else {
            throw argumentCountError(spec, given: parsed.arguments)
        }
        return Invocation(command: try spec.make(parsed), dataDirectory: directory, logsChanges: parsed.has("--log-changes"))
    }

    private enum Match {
        case command(CommandSpec)
        /// A group name alone (`boost`), with its subcommands' names.
        case group(String, names: String)
    }

    /// The command named by the leading `words`: the longest path in the table they start with.
    private static func match(_ words: [String]) throws(UsageError) -> Match {
        let matches = CommandTable.commands.filter { Array(words.prefix($0.path.count)) == $0.path }
        if let best = matches.max(by: { $0.path.count < $1.path.count }), !best.path.isEmpty || words.isEmpty {
            return .command(best)
        }
        guard let first = words.first else { throw UsageError("unknown command") }
        let group = CommandTable.subcommands(of: first)
        guard !group.isEmpty else { throw UsageError("unknown command '\(first)'") }
        let names = group.map { $0.path[1] }.joined(separator: ", ")
        if words.count > 1 {
            throw UsageError("unknown command '\(first) \(words[1])'; '\(first)' takes \(names)", command: first)
        }
        return .group(first, names: names)
    }

    private static func helpPath(_ words: [String]) throws(UsageError) -> [String] {
        if words.isEmpty { return [] }
        if let spec = CommandTable.commands.filter({ Array(words.prefix($0.path.count)) == $0.path && !$0.path.isEmpty })
            .max(by: { $0.path.count < $1.path.count })
        {
            return spec.path
        }
        if let first = words.first, !CommandTable.subcommands(of: first).isEmpty { return [first] }
        throw UsageError("no help for unknown command '\(words.joined(separator: " "))'")
    }

    /// Reads `option`'s value (inline after `=`, or the next token) or records the flag.
    private static func take(
        _ option: OptionSpec, inline: String?, from remaining: inout ArraySlice<String>,
        into parsed: inout ParsedArguments, command: String
    ) throws(UsageError) {
        guard option.takesValue else {
            if inline != nil { throw UsageError("option '\(option.name)' takes no value", command: command) }
            parsed.flags.insert(option.name)
            return
        }
        let value: String
        if let inline {
            value = inline
        } else if let next = remaining.first, !next.hasPrefix("--") {
            value = next
            remaining = remaining.dropFirst()
        } else {
            throw UsageError("option '\(option.name)' needs a value (\(option.usage))", command: command)
        }
        if parsed.values[option.name] != nil {
            throw UsageError("option '\(option.name)' was given twice", command: command)
        }
        parsed.values[option.name] = value
    }

    /// `--name=value` → (`--name`, `value`); anything else → (token, nil).
    private static func split(_ token: String) -> (String, String?) {
        guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }

    /// `--version`: accepted before any command word only.
    static let versionOption = OptionSpec.flag("--version", "Print demo-cli's version and exit.")

    /// `-h` is `--help`.
    private static func helpAlias(_ name: String) -> OptionSpec? {
        name == "-h" ? OptionSpec.globals.first { $0.name == "--help" } : nil
    }

    private static func dataDirectory(_ parsed: ParsedArguments) throws(UsageError) -> String? {
        guard let directory = parsed.values["--data-dir"] else { return nil }
        guard !directory.isEmpty else { throw UsageError("--data-dir needs a folder path, got ''") }
        return directory
    }

    private static func argumentCountError(_ spec: CommandSpec, given: [String]) -> UsageError {
        let command = spec.path.joined(separator: " ")
        if given.count < spec.argumentCount.lowerBound {
            return UsageError("'\(spec.name)' needs \(spec.arguments)", command: command)
        }
        let extra = given[spec.argumentCount.upperBound]
        if spec.path.isEmpty {
            return UsageError("unknown command '\(extra)'")
        }
        return UsageError("unexpected argument '\(extra)' for '\(spec.name)'", command: command)
    }
}
