import Foundation

/// The store variants a process was launched with, read from its arguments and environment, to
/// choose stand-ins for a whole run — a UI test's stubs, a demo's configuration.
///
/// A key offers variants by name (``StoreKey/launchVariants``) under its
/// ``StoreKey/launchName``. A launch picks them with either spelling:
///
/// - the argument `--store-variant KEY=NAME` (or `--store-variant=KEY=NAME`), once per key;
/// - the environment variable `SINGLETON_STORES_VARIANTS`, holding `KEY=NAME` pairs separated
///   by commas or spaces.
///
/// When both name a key, the argument wins; among arguments, the last one wins. Apply them at
/// launch with ``prepareStores(_:)``, listing the keys the process knows:
///
/// ```swift
/// prepareStores { $0.applyLaunchVariants(keys: [CartKey.self, WalletKey.self]) }
/// ```
///
/// A choice that cannot be applied — `--store-variant cart=bogus`, a key not listed — applies
/// nothing and is reported (``StoreIssue/launchVariantsIgnored(_:)``, on standard error unless
/// the values have a reporter of their own), so a UI test never runs on production stores
/// without a word. To handle the error yourself, read the variants with
/// ``init(arguments:environment:)`` and apply them with ``StoreValues/apply(_:keys:)``, which
/// throw.
///
/// A UI test then launches the app with `app.launchArguments += ["--store-variant", "cart=full"]`
/// or `app.launchEnvironment["SINGLETON_STORES_VARIANTS"] = "cart=full"`.
///
/// Names are 1–64 letters, digits, `.`, `_` or `-`; at most 64 keys are chosen at once.
/// Anything else is a ``StoreLaunchVariantError`` that says what was wrong.
public struct StoreLaunchVariants: Sendable, Equatable {
    /// One choice: a key's launch name and the variant it should use.
    public struct Selection: Sendable, Equatable, CustomStringConvertible {
        /// The key's ``StoreKey/launchName``.
        public let key: String
        /// The variant's name in the key's ``StoreKey/launchVariants``.
        public let variant: String

        /// Creates a choice of `variant` for the key named `key`.
        public init(key: String, variant: String) {
            self.key = key
            self.variant = variant
        }

        /// `key=variant`.
        public var description: String { "\(key)=\(variant)" }
    }

    /// The launch argument: `--store-variant`.
    public static let argumentName = "--store-variant"
    /// The environment variable: `SINGLETON_STORES_VARIANTS`.
    public static let environmentVariable = "SINGLETON_STORES_VARIANTS"
    /// The most keys one launch may choose variants for.
    public static let maximumSelections = 64
    /// The longest key or variant name: 64 bytes.
    package static let maximumNameLength = 64

    /// The choices, one per key, in the order the keys were first named.
    public private(set) var selections: [Selection]

    /// The arguments with every `--store-variant` option removed, for the app's own parser.
    /// Arguments after a `--` are never read as options and are all kept.
    public private(set) var remainingArguments: [String]

    /// No variants.
    public init() {
        selections = []
        remainingArguments = []
    }

    /// Reads the variants from launch arguments and an environment.
    ///
    /// - Parameters:
    ///   - arguments: The process's arguments, such as `CommandLine.arguments`.
    ///   - environment: The process's environment, such as `ProcessInfo.processInfo.environment`.
    /// - Throws: ``StoreLaunchVariantError`` for a missing or malformed choice, or too many.
    public init(arguments: [String], environment: [String: String]) throws(StoreLaunchVariantError) {
        self.init()
        if let listed = environment[Self.environmentVariable] {
            let pairs = listed.split(whereSeparator: { $0 == "," || $0 == " " })
            for pair in pairs {
                try choose(Self.selection(String(pair), from: Self.environmentVariable))
            }
        }
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                remainingArguments += arguments[(index - 1)...]
                break
            }
            let prefix = Self.argumentName + "="
            if argument.hasPrefix(prefix) {
                try choose(Self.selection(String(argument.dropFirst(prefix.count)), from: Self.argumentName))
            } else if argument == Self.argumentName {
                guard index < arguments.endIndex else { throw .missingValue }
                try choose(Self.selection(arguments[index], from: Self.argumentName))
                index += 1
            } else {
                remainingArguments.append(argument)
            }
        }
    }

    /// The variant chosen for `key`, if any.
    ///
    /// - Parameter key: The key to look up by its ``StoreKey/launchName``.
    public func variant<Key: StoreKey>(for key: Key.Type) -> String? {
        selections.last { $0.key == Key.launchName }?.variant
    }

    /// Records `selection`, replacing an earlier choice for the same key.
    private mutating func choose(_ selection: Selection) throws(StoreLaunchVariantError) {
        if let earlier = selections.firstIndex(where: { $0.key == selection.key }) {
            selections[earlier] = selection
            return
        }
        guard selections.count < Self.maximumSelections else { throw .tooManySelections(limit: Self.maximumSelections) }
        selections.append(selection)
    }

    /// Parses `KEY=NAME`.
    private static func selection(_ text: String, from source: String) throws(StoreLaunchVariantError) -> Selection {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, isName(parts[0]), isName(parts[1]) else {
            throw .malformed(text, source: source)
        }
        return Selection(key: String(parts[0]), variant: String(parts[1]))
    }

    /// Whether `name` is 1–64 letters, digits, `.`, `_` or `-` (ASCII).
    static func isName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameLength
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
    }
}

extension StoreValues {
    /// Sets every key that `launch` chose a variant for to that variant.
    ///
    /// Either all the choices apply or, when one names a key not in `keys` or a variant the key
    /// does not offer, none does and the error lists what exists.
    ///
    /// ```swift
    /// let launch = try StoreLaunchVariants(arguments: arguments, environment: environment)
    /// try prepareStores { try $0.apply(launch, keys: [CartKey.self, WalletKey.self]) }
    /// ```
    ///
    /// Do not hide the error with `try?`: the launch would run on the production stores without
    /// a word. ``applyLaunchVariants(keys:arguments:environment:)`` reports it instead.
    ///
    /// - Parameters:
    ///   - launch: The variants read at launch.
    ///   - keys: Every key the process lets a launch choose for.
    /// - Throws: ``StoreLaunchVariantError/unknownKey(_:known:)`` or
    ///   ``StoreLaunchVariantError/unknownVariant(_:key:known:)``.
    public mutating func apply(_ launch: StoreLaunchVariants, keys: [any StoreKey.Type]) throws(StoreLaunchVariantError) {
        var updated = self
        for selection in launch.selections {
            guard let key = keys.first(where: { $0.launchName == selection.key }) else {
                throw .unknownKey(selection.key, known: keys.map { $0.launchName }.sorted())
            }
            try updated.setVariant(selection.variant, of: key)
        }
        self = updated
    }

    /// Reads the store variants the process was launched with and sets every key they choose,
    /// reporting instead of throwing: what an app calls at launch.
    ///
    /// ```swift
    /// prepareStores { $0.applyLaunchVariants(keys: [CartKey.self, WalletKey.self]) }
    /// ```
    ///
    /// Either every choice applies or none does. When the arguments or the environment are
    /// malformed, or a choice names a key not in `keys` or a variant its key does not offer, no
    /// variant applies and ``reportIssue`` receives ``StoreIssue/launchVariantsIgnored(_:)``
    /// naming what was wrong — printed to standard error by default.
    ///
    /// - Parameters:
    ///   - keys: Every key the process lets a launch choose for.
    ///   - arguments: The process's arguments; `CommandLine.arguments` by default.
    ///   - environment: The process's environment; `ProcessInfo.processInfo.environment` by default.
    public mutating func applyLaunchVariants(
        keys: [any StoreKey.Type],
        arguments: [String] = CommandLine.arguments,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        do {
            try apply(StoreLaunchVariants(arguments: arguments, environment: environment), keys: keys)
        } catch {
            reportIssue(.launchVariantsIgnored(error))
        }
    }

    private mutating func setVariant<Key: StoreKey>(_ name: String, of key: Key.Type) throws(StoreLaunchVariantError) {
        let variants = Key.launchVariants
        guard let value = variants[name] else {
            throw .unknownVariant(name, key: Key.launchName, known: variants.keys.sorted())
        }
        setValue(value, at: ObjectIdentifier(key))
    }
}
