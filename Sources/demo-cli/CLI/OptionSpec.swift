/// One `--option` a command accepts: a row of the option table.
struct OptionSpec: Sendable, Equatable {
    /// The option as typed, with its dashes: `--seconds`.
    let name: String
    /// The placeholder of its value in help (`N`), or `nil` for a flag that takes none.
    let valueName: String?
    /// One line of help.
    let help: String

    /// An option that takes a value.
    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help)
    }

    /// A flag: present or absent.
    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help)
    }

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// `--seconds N` or `--naive`, as help shows it.
    var usage: String { valueName.map { "\(name) \($0)" } ?? name }
}

extension OptionSpec {
    /// `--data-dir PATH`, as each command's help lists it: in short (the program's help says more).
    static let dataDirectory = OptionSpec.value(
        "--data-dir", "PATH", "Keep the stores' files in PATH (see 'demo-cli --help'; 'demo-cli data-dir' prints it).")

    /// What the program's help says about `--data-dir`.
    static let dataDirectoryDetails =
        "Keep the stores' files in PATH; a leading ~ or ~/ means $HOME (~user is refused). Default: "
        + "$SINGLETON_STORES_DATA_DIR (~ expanded too), else the per-user data folder (see DATA FOLDER)."

    /// `--help`, which every command accepts.
    static let help = OptionSpec.flag("--help", "Show help for this command.")

    /// `--log-changes`: every committed change of the stores, printed as it happens.
    static let logChanges = OptionSpec.flag(
        "--log-changes",
        "Print each change the stores commit to standard error: store, old → new, and whether another run made it.")

    /// Options every command accepts.
    static let globals: [OptionSpec] = [dataDirectory, logChanges, help]
}
