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
    /// Whether the newest `.strict` or `.allowed` ``ScopeMark`` in the list starting here is
    /// `.strict`.
    @usableFromInline let forbidsProduction: Bool
    /// Whether the newest `.strict` or `.allowed` ``ScopeMark`` in the list starting here is
    /// `.allowed`.
    @usableFromInline let allowsProduction: Bool
    /// Whether this node or one after it is a `.testGuard` ``ScopeMark``.
    @usableFromInline let guardsTests: Bool
    /// The stubs made in the scope of the newest `.stubs` ``ScopeMark`` in the list starting
    /// here, or `nil` when no scope uses stubs. Non-nil exactly when `usesStubs` is true.
    @usableFromInline let stubs: StubInstances?

    @inlinable
    init(
        key: ObjectIdentifier, next: OverrideNode?, marksStubs: Bool = false, marksStrict: Bool = false,
        marksAllowed: Bool = false, marksTestGuard: Bool = false, stubs: StubInstances? = nil
    ) {
        self.key = key
        self.next = next
        self.stubs = stubs ?? next?.stubs
        self.forbidsProduction = marksStrict || (!marksAllowed && next?.forbidsProduction == true)
        self.allowsProduction = marksAllowed || (!marksStrict && next?.allowsProduction == true)
        self.guardsTests = marksTestGuard || next?.guardsTests == true
    }

    /// Whether this node or one after it is a `.stubs` ``ScopeMark``.
    @inlinable final var usesStubs: Bool { stubs != nil }

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

/// A mark a scope leaves in the list, changing how reads below it in scope behave.
final class ScopeMark: OverrideNode, @unchecked Sendable {
    /// What the mark changes.
    enum Kind {
        /// Left by `useStubs()`: keys without an override read their stub from here on.
        case stubs
        /// Left by `forbidProductionValues()`: from here on, reading a key's production value
        /// reports an issue and returns the stub.
        case strict
        /// Left by `allowProductionValues()`: from here on, production reads are allowed, even
        /// inside a test, until a later `forbidProductionValues()`.
        case allowed
        /// At the bottom of a test process's base values: a production read asks the test
        /// guard (``StoreTestGuard``) whether it happens inside a test.
        case testGuard
    }

    let kind: Kind

    /// Leaves a mark of `kind`; a `.stubs` mark starts with no stub made yet.
    convenience init(_ kind: Kind, next: OverrideNode?) {
        self.init(kind, next: next, stubs: kind == .stubs ? StubInstances() : nil)
    }

    private init(_ kind: Kind, next: OverrideNode?, stubs: StubInstances?) {
        self.kind = kind
        super.init(
            key: ObjectIdentifier(ScopeMark.self), next: next, marksStubs: kind == .stubs, marksStrict: kind == .strict,
            marksAllowed: kind == .allowed, marksTestGuard: kind == .testGuard, stubs: stubs)
    }

    override func relinked(to next: OverrideNode?) -> OverrideNode {
        // A relinked `.stubs` mark is the same scope: it keeps the stubs already made.
        ScopeMark(kind, next: next, stubs: kind == .stubs ? stubs : nil)
    }
}
