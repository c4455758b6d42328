/// Captures the current store values so that code running later, outside this task, can use
/// them again.
///
/// Overrides live in a task-local value, so they reach the code a scope calls and the tasks it
/// starts, but not a closure that a `DispatchQueue`, an `OperationQueue` observer or a callback
/// API runs later on a thread of its own. Capture them before the hop and re-enter them inside
/// the closure:
///
/// ```swift
/// func refreshBadge(then done: @escaping @Sendable (String) -> Void) {
///     withEscapedStores { stores in
///         DispatchQueue.global().async {
///             stores.yield {
///                 done(badgeText())   // reads the stores of the caller's scope
///             }
///         }
///     }
/// }
/// ```
///
/// - Parameter body: Receives the captured values; hand them to the escaping closure.
/// - Returns: What `body` returns.
public func withEscapedStores<Result>(_ body: (EscapedStores) throws -> Result) rethrows -> Result {
    try body(EscapedStores(values: StoreValues.current))
}

/// Captures the current store values for an asynchronous `body`; see
/// ``withEscapedStores(_:)``.
///
/// - Parameters:
///   - isolation: The actor `body` runs on; the caller's by default.
///   - body: Receives the captured values.
/// - Returns: What `body` returns.
public func withEscapedStores<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (EscapedStores) async throws -> Result
) async rethrows -> Result {
    try await body(EscapedStores(values: StoreValues.current))
}

/// Store values captured by ``withEscapedStores(_:)``, to be re-entered in code that runs
/// outside the task that captured them.
public struct EscapedStores: Sendable {
    /// The captured values.
    public let values: StoreValues

    /// Runs `operation` with the captured store values in effect.
    ///
    /// - Parameter operation: The code to run.
    /// - Returns: What `operation` returns.
    public func yield<Result>(_ operation: () throws -> Result) rethrows -> Result {
        let scopes = StoreValues.scopes
        scopes.willBind(values)
        return try StoreValues.taskLocal.withValue(values, operation: operation)
    }

    /// Runs an asynchronous `operation` with the captured store values in effect.
    ///
    /// - Parameters:
    ///   - isolation: The actor `operation` runs on; the caller's by default.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    public func yield<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        let scopes = StoreValues.scopes
        scopes.willBind(values)
        return try await StoreValues.taskLocal.withValue(values, operation: operation)
    }
}
