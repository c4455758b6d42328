/// Runs `operation` with some stores replaced, then restores them.
///
/// The overrides apply to everything `operation` calls, including child tasks and `Task { }`
/// it starts, and to nothing else: code running concurrently outside the scope still sees its
/// own stores.
///
/// ```swift
/// withStores {
///     $0.cart = CartStub(itemCount: 2)
///     $0.wallet = WalletStub(balance: 500)
/// } operation: {
///     #expect(checkoutSummary() == "2 items, 500 in the wallet")
/// }
/// ```
///
/// - Parameters:
///   - updateValues: Changes the current store values for the scope.
///   - operation: The code to run with the changed values.
/// - Returns: What `operation` returns.
@inlinable
public func withStores<Result>(
    _ updateValues: (inout StoreValues) throws -> Void,
    operation: () throws -> Result
) rethrows -> Result {
    // Inlinable so that the update and the operation are specialised where the scope is
    // written: no closure contexts, no generic withValue.
    let taskLocal = StoreValues.taskLocal
    var values = taskLocal.get()
    try updateValues(&values)
    StoreValues.scopes.willBind(values)
    return try taskLocal.withValue(values, operation: operation)
}

/// Runs an asynchronous `operation` with some stores replaced, then restores them.
///
/// See ``withStores(_:operation:)-(_,()->Result)`` for the rules; child tasks created inside
/// `operation` inherit the overrides.
///
/// - Parameters:
///   - updateValues: Changes the current store values for the scope.
///   - isolation: The actor the operation runs on; the caller's by default.
///   - operation: The code to run with the changed values.
/// - Returns: What `operation` returns.
@inlinable
public func withStores<Result>(
    _ updateValues: (inout StoreValues) throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async rethrows -> Result {
    let taskLocal = StoreValues.taskLocal
    var values = taskLocal.get()
    try updateValues(&values)
    StoreValues.scopes.willBind(values)
    return try await taskLocal.withValue(values, operation: operation)
}
