// The registry's override list: how `StoreValues` keeps the stores a scope replaced. Internal;
// `StoreValues` is the API.

/// One entry of the registry's override list: an immutable node, newest first.
///
/// A scope adds one node in front of the list it inherits, so an override costs one allocation
/// and copying the registry copies one reference. Stores are few, so a linear search is as fast
/// as hashing.
@usableFromInline class OverrideNode: @unchecked Sendable {
    // @unchecked: every stored property is an immutable `let` of a Sendable type (the value in
    // `TypedOverride` is constrained to Sendable); the class is not final only so that
    // `TypedOverride` can add the typed value.
    @usableFromInline let key: ObjectIdentifier
    @usableFromInline let next: OverrideNode?
    /// Whether this node or one after it is a ``StubsMark``.
    @usableFromInline let usesStubs: Bool
    /// Whether the newest ``StrictMark`` or ``AllowMark`` in the list starting here is a
    /// ``StrictMark``.
    @usableFromInline let forbidsProduction: Bool
    /// Whether the newest ``StrictMark`` or ``AllowMark`` in the list starting here is an
    /// ``AllowMark``.
    @usableFromInline let allowsProduction: Bool
    /// Whether this node or one after it is a ``TestGuardMark``.
    @usableFromInline let guardsTests: Bool

    @inlinable
    init(
        key: ObjectIdentifier, next: OverrideNode?, marksStubs: Bool = false, marksStrict: Bool = false,
        marksAllowed: Bool = false, marksTestGuard: Bool = false
    ) {
        self.key = key
        self.next = next
        self.usesStubs = marksStubs || next?.usesStubs == true
        self.forbidsProduction = marksStrict || (!marksAllowed && next?.forbidsProduction == true)
        self.allowsProduction = marksAllowed || (!marksStrict && next?.allowsProduction == true)
        self.guardsTests = marksTestGuard || next?.guardsTests == true
    }

    /// Whether a production read must ask the test guard first: the process runs tests and
    /// no scope allowed production stores since.
    @inlinable final var checksReadsInTests: Bool { guardsTests && !allowsProduction }

    /// The value stored under `key` in the list starting here, if any.
    ///
    /// Only `StoreValues.setValue` makes nodes under a key's slot, and it always stores that
    /// key's `Value` there (the issue-reporter slot likewise only ever holds the reporter), so
    /// the cast succeeds whenever the key matches.
    @inlinable
    final func value<Value: Sendable>(at key: ObjectIdentifier, as type: Value.Type) -> Value? {
        if self.key == key { return (self as? TypedOverride<Value>)?.value }
        return next?.value(at: key, as: type)
    }

    /// A copy of this node with a different tail. Every subclass overrides it.
    func relinked(to next: OverrideNode?) -> OverrideNode {
        OverrideNode(key: key, next: next)
    }

    /// Whether the list starting here has a node for `key`.
    @usableFromInline final func contains(_ key: ObjectIdentifier) -> Bool {
        var node: OverrideNode? = self
        while let current = node {
            if current.key == key { return true }
            node = current.next
        }
        return false
    }

    /// The list starting here without the nodes for `key`; shares the tail after the last one.
    @usableFromInline final func removing(_ key: ObjectIdentifier) -> OverrideNode? {
        guard contains(key) else { return self }
        let rest = next?.removing(key)
        return self.key == key ? rest : relinked(to: rest)
    }
}

/// An override node carrying the store for its key.
@usableFromInline final class TypedOverride<Value: Sendable>: OverrideNode, @unchecked Sendable {
    @usableFromInline let value: Value

    @inlinable init(key: ObjectIdentifier, value: Value, next: OverrideNode?) {
        self.value = value
        super.init(key: key, next: next)
    }

    override func relinked(to next: OverrideNode?) -> OverrideNode {
        TypedOverride(key: key, value: value, next: next)
    }
}

/// The mark `useStubs()` leaves: keys without an override read their stub from here on.
final class StubsMark: OverrideNode, @unchecked Sendable {
    init(next: OverrideNode?) {
        super.init(key: ObjectIdentifier(StubsMark.self), next: next, marksStubs: true)
    }

    override func relinked(to next: OverrideNode?) -> OverrideNode {
        StubsMark(next: next)
    }
}

/// The mark `forbidProductionValues()` leaves: from here on, reading a key's production value
/// reports an issue and returns the stub.
final class StrictMark: OverrideNode, @unchecked Sendable {
    init(next: OverrideNode?) {
        super.init(key: ObjectIdentifier(StrictMark.self), next: next, marksStrict: true)
    }

    override func relinked(to next: OverrideNode?) -> OverrideNode {
        StrictMark(next: next)
    }
}

/// The mark `allowProductionValues()` leaves: from here on, production reads are allowed, even
/// inside a test, until a later `forbidProductionValues()`.
final class AllowMark: OverrideNode, @unchecked Sendable {
    init(next: OverrideNode?) {
        super.init(key: ObjectIdentifier(AllowMark.self), next: next, marksAllowed: true)
    }

    override func relinked(to next: OverrideNode?) -> OverrideNode {
        AllowMark(next: next)
    }
}

/// The mark at the bottom of a test process's base values: a production read asks the test
/// guard (``StoreTestGuard``) whether it happens inside a test.
final class TestGuardMark: OverrideNode, @unchecked Sendable {
    init(next: OverrideNode?) {
        super.init(key: ObjectIdentifier(TestGuardMark.self), next: next, marksTestGuard: true)
    }

    override func relinked(to next: OverrideNode?) -> OverrideNode {
        TestGuardMark(next: next)
    }
}
