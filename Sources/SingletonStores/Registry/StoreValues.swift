/// The current store for every store contract: production singletons by default, with scoped
/// overrides for tests, previews and debugging.
///
/// App code never names a singleton. It reads the current store through the registry — or takes
/// a contract parameter whose default is the current store — and so works unchanged when a test
/// swaps the store:
///
/// ```swift
/// func badgeText(cart: any CartContract = StoreValues.current.cart) -> String {
///     cart.itemCount == 0 ? "" : "\(cart.itemCount)"
/// }
///
/// @Test func badgeShowsTheCount() {
///     withStores {
///         $0.cart = CartStub(itemCount: 3)
///     } operation: {
///         #expect(badgeText() == "3")
///     }
/// }
/// ```
///
/// Overrides live in a task-local value: they apply for the duration of the `withStores`
/// operation, to the code it calls, and to the child tasks and `Task { }` it creates.
/// `Task.detached` does not inherit them. Tests running concurrently never see each other's
/// overrides. ``withEscapedStores(_:)`` carries them into closures that a `DispatchQueue`,
/// an `OperationQueue` or a callback runs later.
///
/// Outside any scope, every task reads the process's base values: the production stores, or
/// what ``prepareStores(_:)`` chose at launch (such as ``StoreLaunchVariants`` for a UI test).
/// ``forbidProductionValues()`` turns a production read into a reported issue, for tests.
/// In a test process that links SingletonStoresTesting, a production read inside a Swift
/// Testing test is refused by default — it records a test issue and reads the stub — unless the
/// test allows it (``allowProductionValues()``, the `.productionStores` trait).
///
/// Each store joins the registry with a ``StoreKey`` and a computed property, declared next to
/// the store (the `cart` above is one); the registry itself needs no change.
public struct StoreValues: Sendable {
    /// The store values in effect for the current task.
    ///
    /// Read stores from it (`StoreValues.current.cart`); change it only with ``withStores(_:operation:)``.
    @inlinable public static var current: StoreValues { scopes.current }

    // The process's base values, and whether a scope has bound others yet (see `ScopeBindings`).
    @usableFromInline static let scopes = ScopeBindings()

    // The task-local behind `current`, which `withStores` binds. A plain `TaskLocal` rather than
    // the `@TaskLocal` wrapper so that reading `current` is inlined where a store is read.
    // Its default — what a task outside any `withStores` reads — is the base values.
    @usableFromInline static let taskLocal = TaskLocal(wrappedValue: scopes.base)

    // Everything that differs from the defaults — store overrides, the `useStubs()` mark, a
    // custom issue reporter — as an immutable list, newest first. With nothing changed it is
    // `nil`, so the values are one null reference: free to copy out of the task-local, and a
    // read goes straight to the production store.
    @usableFromInline var overrides: OverrideNode?

    /// Receives the problems the registry reports, such as reading a key that has no production
    /// value outside an override. Prints to standard error by default.
    ///
    /// Set it inside `withStores` to collect reports in a test:
    ///
    /// ```swift
    /// let issues = Mutex<[StoreIssue]>([])
    /// withStores { $0.reportIssue = { issue in issues.withLock { $0.append(issue) } } } operation: {
    ///     checkout()
    /// }
    /// ```
    public var reportIssue: @Sendable (StoreIssue) -> Void {
        get {
            overrides?.value(at: reportIssueSlot, as: (@Sendable (StoreIssue) -> Void).self)
                ?? StoreIssue.printToStandardError
        }
        set { setValue(newValue, at: reportIssueSlot) }
    }

    /// Creates registry values with no overrides: every key reads its production value.
    public init() {}

    /// The current store for `key`: the override if one is set, else the scope's stub when
    /// ``useStubs()`` is in effect (made once per scope), else the key's production value (reported, and replaced by
    /// the stub, under ``forbidProductionValues()``).
    public subscript<Key: ProductionStoreKey>(key: Key.Type) -> Key.Value {
        // Inlinable, and always inlined, so that a read is specialised for the key where it is
        // written. Outside any override it is the task-local read, one emptiness check and the
        // production store.
        @inlinable @inline(__always) get {
            guard let overrides else { return Key.productionValue }
            // The newest override first, inline, as a cast of the borrowed head: a test's scope
            // usually sets the key it reads. Through `value(at:as:)` the same read retains the
            // head twice and moves the existential twice (callgrind: 490 → 399 instructions).
            if overrides.key == ObjectIdentifier(key), let override = overrides as? TypedOverride<Key.Value> {
                return override.value
            }
            if let value = overrides.value(at: ObjectIdentifier(key), as: Key.Value.self) {
                return value
            }
            if let stubs = overrides.stubs { return stubs.stub(for: key) }
            if overrides.forbidsProduction { return forbiddenProductionRead(of: key) }
            return overrides.checksReadsInTests ? guardedProductionRead(of: key) : Key.productionValue
        }
        @inlinable set { setValue(newValue, at: ObjectIdentifier(key)) }
    }

    /// The current store for a key that may have no production value.
    ///
    /// Without an override (and outside ``useStubs()``), a key with no production value reports
    /// ``StoreIssue/noProductionValue(key:)`` and returns the key's stub.
    @_disfavoredOverload
    public subscript<Key: StoreKey>(key: Key.Type) -> Key.Value {
        get {
            if let overrides {
                if let value = overrides.value(at: ObjectIdentifier(key), as: Key.Value.self) {
                    return value
                }
                if let stubs = overrides.stubs { return stubs.stub(for: key) }
                if overrides.forbidsProduction { return forbiddenProductionRead(of: key) }
                if overrides.checksReadsInTests, let refuse = TestGuardLink.installed,
                    key is any ProductionStoreKey.Type, refuse(key)
                {
                    return Key.stubValue
                }
            }
            if let production = productionValue(of: key) { return production }
            reportIssue(.noProductionValue(key: String(reflecting: key)))
            return Key.stubValue
        }
        @inlinable set { setValue(newValue, at: ObjectIdentifier(key)) }
    }

    /// Makes every key without an override read its stub instead of its production value.
    ///
    /// Each key's stub is made once in the scope, on its first read: every later read in the
    /// scope, and in the scopes and tasks it starts, gets that same instance, so what a test
    /// writes to a stub it reads back. The next scope that calls `useStubs()` — the next test —
    /// starts with fresh stubs.
    ///
    /// Use it to run a test or a preview with no production store at all:
    ///
    /// ```swift
    /// withStores { $0.useStubs() } operation: {
    ///     checkout()  // reads every store's stub
    /// }
    /// ```
    public mutating func useStubs() {
        guard overrides?.usesStubs != true else { return }
        overrides = ScopeMark(.stubs, next: overrides)
    }

    /// Makes reading a key's production value an error: the read reports
    /// ``StoreIssue/productionValueForbidden(key:)`` and returns the key's stub instead, so a
    /// test that forgot to stub a store fails and never touches the real one. Overridden keys,
    /// and every key under ``useStubs()``, read as usual.
    ///
    /// ```swift
    /// let issues = Mutex<[StoreIssue]>([])
    /// withStores {
    ///     $0.forbidProductionValues()
    ///     $0.reportIssue = { issue in issues.withLock { $0.append(issue) } }
    ///     $0.cart = CartStub(itemCount: 1)
    /// } operation: {
    ///     checkout()  // reading StoreValues.current.wallet reports an issue
    /// }
    /// ```
    ///
    /// Only reads through the registry are checked: code that names `WalletStore.shared`
    /// directly is not. The `.strictStores` trait of SingletonStoresTesting turns the report
    /// into a test failure.
    public mutating func forbidProductionValues() {
        guard overrides?.forbidsProduction != true else { return }
        overrides = ScopeMark(.strict, next: overrides)
    }

    /// Lets keys without an override read their production value, even inside a test.
    ///
    /// In a test process that links SingletonStoresTesting, reading a production store inside a
    /// Swift Testing test records a test issue and reads the stub instead, so that a test that
    /// forgot a stub fails rather than touching the user's data. A test that means to use a
    /// production store says so — with the `.productionStores` trait, or in a scope:
    ///
    /// ```swift
    /// withStores { $0.allowProductionValues() } operation: {
    ///     print(badgeText())  // reads the production cart, even in a test
    /// }
    /// ```
    ///
    /// It also lifts an earlier ``forbidProductionValues()``; a later one forbids them again.
    public mutating func allowProductionValues() {
        guard overrides?.allowsProduction != true else { return }
        overrides = ScopeMark(.allowed, next: overrides)
    }

    /// Removes the override for `key`, so it reads its default again.
    ///
    /// - Parameter key: The key to reset.
    public mutating func removeOverride<Key: StoreKey>(for key: Key.Type) {
        overrides = overrides?.removing(ObjectIdentifier(key))
    }

    @inlinable
    mutating func setValue<Value: Sendable>(_ value: Value, at slot: ObjectIdentifier) {
        // Replace rather than shadow, so that setting a key again and again does not grow the list.
        overrides = TypedOverride(key: slot, value: value, next: overrides?.removing(slot))
    }

    /// A production read under ``forbidProductionValues()``: reported, and the stub returned.
    @usableFromInline func forbiddenProductionRead<Key: StoreKey>(of key: Key.Type) -> Key.Value {
        reportIssue(.productionValueForbidden(key: String(reflecting: key)))
        return Key.stubValue
    }

    private func productionValue<Key: StoreKey>(of key: Key.Type) -> Key.Value? {
        guard let production = key as? any ProductionStoreKey.Type else { return nil }
        return openProductionValue(production) as? Key.Value
    }

    private func openProductionValue<Key: ProductionStoreKey>(_ key: Key.Type) -> any Sendable {
        Key.productionValue
    }
}

/// The slot of the custom issue reporter in the override list.
private enum ReportIssueSlot {}
private let reportIssueSlot = ObjectIdentifier(ReportIssueSlot.self)
