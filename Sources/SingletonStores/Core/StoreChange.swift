/// One committed change of a store's state: the value before and the value after.
///
/// A store posts a `StoreChange` on its channel each time a write commits a new value. Writes
/// that leave the state equal to what it was post nothing, so `old != new` always holds.
///
/// ```swift
/// let token = counter.observe { change in
///     print("\(change.old) → \(change.new)", change.origin == .otherProcess ? "(another process)" : "")
/// }
/// ```
public struct StoreChange<State: Sendable>: Sendable {
    /// Where a change came from.
    public enum Origin: Sendable, Hashable {
        /// A write in this process.
        case local
        /// Another process (or another storage instance) wrote the document, and the store
        /// followed it.
        case otherProcess
    }

    /// The state before the change.
    public let old: State
    /// The committed state after the change.
    public let new: State
    /// Where the change came from: a write in this process, or one the store followed.
    public let origin: Origin

    /// Creates a change from `old` to `new`.
    ///
    /// - Parameters:
    ///   - old: The state before the change.
    ///   - new: The committed state after the change.
    ///   - origin: Where it came from; a write in this process by default.
    public init(old: State, new: State, origin: Origin = .local) {
        self.old = old
        self.new = new
        self.origin = origin
    }
}

/// Two changes are equal when their old and new states are; where they came from is not
/// compared, so an expected `StoreChange(old:new:)` matches a change followed from another
/// process too. Compare ``StoreChange/origin`` to tell them apart.
extension StoreChange: Equatable where State: Equatable {
    /// Whether the two changes have equal old and new states.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.old == rhs.old && lhs.new == rhs.new
    }
}

extension StoreChange: Hashable where State: Hashable {
    /// Hashes the old and new states (not the origin, as ``==(_:_:)`` does not compare it).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(old)
        hasher.combine(new)
    }
}

extension StoreChange: CustomStringConvertible {
    /// `old → new`, followed by `(another process)` for a followed change: for test failure
    /// messages and logs.
    public var description: String {
        origin == .otherProcess ? "\(old) → \(new) (another process)" : "\(old) → \(new)"
    }
}

/// A store change whatever its state's type: what the change log reads from a post.
protocol AnyStoreChange: Sendable {
    /// The old state, described.
    var oldDescription: String { get }
    /// The new state, described.
    var newDescription: String { get }
    /// Where the change came from.
    var isFromOtherProcess: Bool { get }
}

extension StoreChange: AnyStoreChange {
    var oldDescription: String { String(describing: old) }
    var newDescription: String { String(describing: new) }
    var isFromOtherProcess: Bool { origin == .otherProcess }
}
