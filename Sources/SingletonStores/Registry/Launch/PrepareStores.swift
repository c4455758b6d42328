/// Sets the store values the whole process starts from, once, before any store is read.
///
/// Call it first thing at launch — in the app's `init` or at the top of `main` — to choose
/// stores for the entire run: a UI test's stubs, a demo's configuration, launch variants picked
/// by arguments (see ``StoreLaunchVariants``):
///
/// ```swift
/// @main struct MyApp: App {
///     init() {
///         prepareStores {
///             $0.apiTarget = APITargetStoreStub(target: .dev01)
///         }
///     }
///     …
/// }
/// ```
///
/// The prepared values replace the defaults every task reads outside `withStores`; scoped
/// overrides still apply on top of them. The base values are fixed by the first read of the
/// registry, so a call after a store was read — or a second call — changes nothing and reports
/// ``StoreIssue/storesPreparedAfterUse`` or ``StoreIssue/storesAlreadyPrepared``.
///
/// - Parameter updateValues: Changes the default values. If it throws, nothing is prepared.
/// - Returns: Whether the values were applied.
@discardableResult
public func prepareStores(_ updateValues: (inout StoreValues) throws -> Void) rethrows -> Bool {
    try StorePreparation.process.prepare(updateValues, reportIssue: { StoreValues.current.reportIssue($0) })
}
