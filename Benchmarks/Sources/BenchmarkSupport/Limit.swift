import Synchronization

/// The least a task-scoped, lock-protected store read can cost: one `@TaskLocal` read, a nil
/// check, and one `Mutex` read. No registry, no existential, no key lookup.
public enum Limit {
    /// The overrides of the limit's registry: one optional reference.
    public struct Values: Sendable {
        public var override: LimitStore?
        public init(override: LimitStore? = nil) { self.override = override }
    }

    /// The task-local the limit reads.
    @TaskLocal public static var current = Values()

    /// The default store.
    public static let production = LimitStore(value: 0)

    /// One read: the task-local, then the store's mutex.
    @inline(__always)
    public static func read() -> Int {
        (current.override ?? production).value
    }
}

/// A counter behind a bare `Mutex`.
public final class LimitStore: Sendable {
    private let state: Mutex<Int>
    public init(value: Int) { state = Mutex(value) }
    public var value: Int { state.withLock { $0 } }
}
