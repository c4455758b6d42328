import SingletonStoresLocking

/// The document of a stub value store (``ValueStore/init(stub:center:)``): its value kept in
/// memory as it is, never encoded, never watched.
///
/// Its lock stands for a document's file lock: a transaction's body runs under it, as it runs
/// under the key's lock of an ``InMemoryStorage``, and the store commits to memory and posts
/// after it is released.
package final class MemoryDocument<Value: Sendable>: Sendable {
    private let value: Locked<Value>

    /// A document holding `value`.
    package init(_ value: Value) {
        self.value = Locked(value)
    }

    /// The value now.
    var current: Value { value.withLock { $0 } }

    /// The reading of a store on this document: the value kept here.
    var reading: StateReading<Value> {
        StateReading { _ in StorageLoad(value: self.current, isStored: true) }
    }

    /// Runs `body` on the value under the lock and keeps what it leaves (nothing, if it
    /// throws); `nil` when `waits` is `false` and another transaction holds the lock.
    func transaction<Outcome>(
        waits: Bool, _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        // The two calls differ in waiting only; each body is written out, as a result made
        // inside the lock's closure may be handed out of it (a helper's result may not).
        guard waits else {
            return try value.withLockIfAvailable { (stored: inout Value) throws(StorageError) in
                var working = stored
                let outcome = try body(&working)
                stored = working
                return StorageUpdate(value: working, outcome: outcome, didWrite: true)
            }
        }
        return try value.withLock { (stored: inout Value) throws(StorageError) in
            var working = stored
            let outcome = try body(&working)
            stored = working
            return StorageUpdate(value: working, outcome: outcome, didWrite: true)
        }
    }
}
