/// A key for one store contract in ``StoreValues``, naming the stub tests and previews use.
///
/// Declare a key next to a store's contract, then add a computed property to ``StoreValues`` so
/// app code can read the current store by name. A key that also has a production instance
/// conforms to ``ProductionStoreKey``; one that only names a stub is for contracts whose real
/// implementation is supplied later (by an app module, or only inside tests):
///
/// ```swift
/// protocol ClockFaceContract: Sendable { var style: String { get } }
///
/// enum ClockFaceKey: StoreKey {
///     static var stubValue: any ClockFaceContract { ClockFaceStub(style: "digital") }
/// }
///
/// extension StoreValues {
///     var clockFace: any ClockFaceContract {
///         get { self[ClockFaceKey.self] }
///         set { self[ClockFaceKey.self] = newValue }
///     }
/// }
/// ```
///
/// Reading a key without a production value outside an override reports an issue naming the
/// key (see ``StoreValues/reportIssue``) and returns the stub, so the mistake is loud but the
/// program goes on.
///
/// A read returns the store as its contract existential. When every implementation of a
/// contract is a class, declare the contract `AnyObject` (`protocol ClockFaceContract:
/// AnyObject, Sendable`): a read then copies one reference instead of an opaque existential,
/// which makes every read cheaper.
public protocol StoreKey<Value>: Sendable {
    /// The type of the store this key gives access to, usually `any SomeContract`.
    associatedtype Value: Sendable

    /// The stand-in used by tests and previews, and by ``StoreValues/useStubs()``.
    ///
    /// Write it as a computed property that makes a new stub. Under ``StoreValues/useStubs()``
    /// (the `.stubbedStores` trait) it is read once per scope — once per test — and every read
    /// of the key in that scope gets the same instance, so a test reads back what it wrote.
    static var stubValue: Value { get }

    /// The name launch arguments use for this key, as in `--store-variant boost=running`.
    ///
    /// Letters, digits, `.`, `_` and `-` only. The key's type name by default.
    static var launchName: String { get }

    /// Named stand-ins a process can choose at launch — for UI tests and demos — by name.
    ///
    /// ```swift
    /// static var launchVariants: [String: any CartContract] {
    ///     ["empty": CartStub(itemCount: 0), "full": CartStub(itemCount: 99)]
    /// }
    /// ```
    ///
    /// None by default. See ``StoreLaunchVariants`` for how a process applies them.
    static var launchVariants: [String: Value] { get }
}

extension StoreKey {
    /// The key's type name, such as `CartKey`.
    public static var launchName: String { String(describing: Self.self) }

    /// No variants.
    public static var launchVariants: [String: Value] { [:] }
}

/// A ``StoreKey`` whose store has a production instance, used with no set-up at all.
///
/// ```swift
/// enum CounterKey: ProductionStoreKey {
///     static var productionValue: any CounterContract { CounterStore.shared }
///     static var stubValue: any CounterContract { CounterStub(count: 0) }
/// }
/// ```
public protocol ProductionStoreKey<Value>: StoreKey {
    /// The instance app code gets when nothing is overridden: usually the store's `.shared`.
    static var productionValue: Value { get }
}
