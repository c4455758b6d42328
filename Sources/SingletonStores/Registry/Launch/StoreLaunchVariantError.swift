import SingletonStoresLocking

/// Why the store variants of a launch could not be read or applied.
public enum StoreLaunchVariantError: Error, Equatable, CustomStringConvertible {
    /// `--store-variant` was the last argument, with no `KEY=NAME` after it.
    case missingValue
    /// A choice was not `KEY=NAME` with names of 1–64 letters, digits, `.`, `_` or `-`.
    case malformed(String, source: String)
    /// More keys were chosen than ``StoreLaunchVariants/maximumSelections``.
    case tooManySelections(limit: Int)
    /// A choice named a key the process does not offer.
    case unknownKey(String, known: [String])
    /// A choice named a variant the key does not offer.
    case unknownVariant(String, key: String, known: [String])

    /// What was wrong and how to write it; text from the launch is quoted with control
    /// characters escaped.
    public var description: String {
        switch self {
        case .missingValue:
            "\(StoreLaunchVariants.argumentName) needs KEY=NAME after it, as in \(StoreLaunchVariants.argumentName) boost=running."
        case .malformed(let text, let source):
            "\(source): \(Self.quoted(text)) is not KEY=NAME; names are 1–\(StoreLaunchVariants.maximumNameLength) "
                + "letters, digits, '.', '_' or '-'."
        case .tooManySelections(let limit):
            "More than \(limit) store variants were chosen; choose at most one per key."
        case .unknownKey(let key, let known):
            "No store is called \(Self.quoted(key)) for launch variants; known: \(Self.list(known))."
        case .unknownVariant(let name, let key, let known):
            "The store \(key) has no variant \(Self.quoted(name)); its variants: \(Self.list(known))."
        }
    }

    /// `text` in double quotes, control and formatting characters escaped.
    private static func quoted(_ text: String) -> String {
        "\"" + text.escapingControlCharacters + "\""
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
