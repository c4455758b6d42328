/// A store read from ``StoreValues`` once, when its owner is made: the property-wrapper form of
/// a parameter whose default is `StoreValues.current.<store>`.
///
/// ```swift
/// @Observable final class DraftModel {
///     @ObservationIgnored @CurrentStore(\.draft) var draft  // the store current when the model is made
///     var text: String { draft.value.text }
/// }
/// ```
///
/// The store is looked up when the owner is initialised — inside a test's `withStores` scope or
/// trait, that scope's override or stub — and kept for the owner's life, so a model made in a
/// test keeps using the test's stub wherever its methods run later. Mark it
/// `@ObservationIgnored` in an `@Observable` class: the store itself is observable, so a view
/// that reads through it (`draft.value`) redraws on every change.
///
/// It is the same lookup as a default argument (`init(draft: ValueStore<Draft> =
/// StoreValues.current.draft)`), which remains the style to use where a caller should be able
/// to hand in another store.
@propertyWrapper
public struct CurrentStore<Store: Sendable>: Sendable {
    /// The store read when the owner was made.
    public let wrappedValue: Store

    /// Reads the current store at `keyPath`, such as `\.draft`, from ``StoreValues/current``.
    ///
    /// - Parameter keyPath: The registry accessor of the store.
    public init(_ keyPath: KeyPath<StoreValues, Store> & Sendable) {
        wrappedValue = StoreValues.current[keyPath: keyPath]
    }
}
