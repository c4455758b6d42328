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
    static var stubValue: Value { get }
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
