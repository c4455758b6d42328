/// The current store for every store contract: production singletons by default, with scoped
/// overrides for tests, previews and debugging.
///
/// App code never names a singleton. It reads the current store through the registry — or takes
/// a contract parameter whose default is the current store, as seed 004's
/// `toURLString(params:api:)` does — and so works unchanged when a test swaps the store:
///
/// ```swift
/// func greeting(gender: any GenderStoreContract = StoreValues.current.gender) -> String {
///     gender.isFemale ? "Welcome, ma'am" : "Welcome"
/// }
///
/// @Test func greetsWomen() {
///     withStores {
///         $0.gender = GenderStoreStub(isFemale: true, isNilGenderCode: false)
///     } operation: {
///         #expect(greeting() == "Welcome, ma'am")
///     }
/// }
/// ```
///
/// Overrides live in a task-local value: they apply for the duration of the `withStores`
/// operation, to the code it calls, and to the child tasks and `Task { }` it creates.
/// `Task.detached` does not inherit them. Tests running concurrently never see each other's
/// overrides.
///
/// App modules add their own stores with a ``StoreKey`` and a computed property; the Stores
/// module needs no change.
public struct StoreValues: Sendable {
    /// The store values in effect for the current task.
    ///
    /// Read stores from it (`StoreValues.current.gender`); change it only with ``withStores(_:operation:)``.
    @TaskLocal public static var current = StoreValues()

    private var overrides: [ObjectIdentifier: any StoreBox] = [:]
    private var usesStubs = false

    /// Receives the problems the registry reports, such as reading a key that has no production
    /// value outside an override. Prints to standard error by default.
    ///
    /// Set it inside `withStores` to collect reports in a test:
    ///
    /// ```swift
    /// withStores { $0.reportIssue = { messages.append($0) } } operation: { … }
    /// ```
    public var reportIssue: @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError

    /// Creates registry values with no overrides: every key reads its production value.
    public init() {}

    /// The current store for `key`: the override if one is set, else the stub when
    /// ``useStubs()`` is in effect, else the key's production value.
    public subscript<Key: ProductionStoreKey>(key: Key.Type) -> Key.Value {
        get {
            if let value = overriddenValue(for: key) { return value }
            return usesStubs ? Key.stubValue : Key.productionValue
        }
        set { setOverride(newValue, for: key) }
    }

    /// The current store for a key that may have no production value.
    ///
    /// Without an override (and outside ``useStubs()``), a key with no production value reports
    /// ``StoreIssue/noProductionValue(key:)`` and returns the key's stub.
    @_disfavoredOverload
    public subscript<Key: StoreKey>(key: Key.Type) -> Key.Value {
        get {
            if let value = overriddenValue(for: key) { return value }
            if usesStubs { return Key.stubValue }
            if let production = productionValue(of: key) { return production }
            reportIssue(.noProductionValue(key: String(reflecting: key)))
            return Key.stubValue
        }
        set { setOverride(newValue, for: key) }
    }

    /// Makes every key without an override read its stub instead of its production value.
    ///
    /// Use it to run a test or a preview with no production store at all:
    ///
    /// ```swift
    /// withStores { $0.useStubs() } operation: { … }
    /// ```
    public mutating func useStubs() {
        usesStubs = true
    }

    /// Removes the override for `key`, so it reads its default again.
    ///
    /// - Parameter key: The key to reset.
    public mutating func removeOverride<Key: StoreKey>(for key: Key.Type) {
        overrides[ObjectIdentifier(key)] = nil
    }

    private func overriddenValue<Key: StoreKey>(for key: Key.Type) -> Key.Value? {
        guard !overrides.isEmpty, let box = overrides[ObjectIdentifier(key)] else { return nil }
        // Every entry under a key's identifier was stored by `setOverride` with that key's
        // `Value`, so this cast always succeeds; it still fails soft rather than trapping.
        return (box as? Box<Key.Value>)?.value
    }

    private mutating func setOverride<Key: StoreKey>(_ value: Key.Value, for key: Key.Type) {
        overrides[ObjectIdentifier(key)] = Box(value)
    }

    private func productionValue<Key: StoreKey>(of key: Key.Type) -> Key.Value? {
        guard let production = key as? any ProductionStoreKey.Type else { return nil }
        return openProductionValue(production) as? Key.Value
    }

    private func openProductionValue<Key: ProductionStoreKey>(_ key: Key.Type) -> any Sendable {
        Key.productionValue
    }
}

/// A type-erased override, stored in a class so the registry's dictionary stays cheap to copy.
private protocol StoreBox: Sendable {}

private final class Box<Value: Sendable>: StoreBox {
    let value: Value
    init(_ value: Value) { self.value = value }
}
