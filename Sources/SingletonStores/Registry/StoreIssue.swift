import Foundation
import SingletonStoresLocking

/// A problem the store registry reports instead of crashing.
///
/// Issues go to ``StoreValues/reportIssue``, which prints them by default.
public enum StoreIssue: Sendable, Equatable, CustomStringConvertible {
    /// A key with no production value was read outside any override; its stub was used.
    ///
    /// - Parameter key: The key's fully qualified type name.
    case noProductionValue(key: String)

    /// A store's document could not be used; it was kept aside, or left in place when it could
    /// not be migrated or is not this store's to change (a newer version of the app or another
    /// store wrote it; see the error), and the store started from its defaults.
    case storageRecovered(StorageError)

    /// A store loaded a document whose value it cannot use as it is. The store says what it
    /// did instead (kept the value, read it as a default, …) and what the user can do.
    ///
    /// Any store reports this case, with its document's key and a message in its own words:
    ///
    /// ```swift
    /// if settings.fontSize > 72 {
    ///     reportIssue(.unusableStoredValue(key: "settings", message:
    ///         "The stored font size \(settings.fontSize) is above 72; 72 is used. Set it again to replace it."))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key of the document the value was read from.
    ///   - message: What is wrong, what the store did about it, and how to fix it.
    case unusableStoredValue(key: String, message: String)

    /// A key's production value was read under ``StoreValues/forbidProductionValues()`` (strict
    /// mode); its stub was used instead.
    ///
    /// - Parameter key: The key's fully qualified type name.
    case productionValueForbidden(key: String)

    /// ``prepareStores(_:)`` was called again after an earlier call had set the base values;
    /// the later call changed nothing.
    case storesAlreadyPrepared

    /// ``prepareStores(_:)`` was called after a store was read (or a `withStores` scope ran);
    /// it changed nothing.
    case storesPreparedAfterUse

    /// The store variants a launch chose could not be read or applied, so none was applied: the
    /// process runs on the stores it would have had without them.
    /// ``StoreValues/applyLaunchVariants(keys:arguments:environment:)`` reports it.
    ///
    /// - Parameter error: What was wrong with the choice, naming the key or variant.
    case launchVariantsIgnored(StoreLaunchVariantError)

    /// A store was made on a document that a live store of another identity in this process
    /// already uses (the same key in the same folder). The new store leaves the document alone:
    /// it starts from its default and its writes throw
    /// ``StorageError/documentOfAnotherStore(file:owner:store:)``; the first store is unaffected.
    ///
    /// - Parameters:
    ///   - key: The document's key.
    ///   - usedBy: The ``StoreDocument/identity`` of the live store (by default, the name of the
    ///     value type it keeps).
    ///   - requestedBy: The identity of the refused store.
    case documentKeyInUse(key: String, usedBy: String, requestedBy: String)

    /// A ``prepareStores(_:)`` call made a store before it declared ``StoreValues/dataFolder``:
    /// that store keeps its documents in `storeFolder`, not in the declared `dataFolder` that
    /// every store made afterwards uses. Set the folder first in the call.
    ///
    /// - Parameters:
    ///   - storeFolder: The folder of the store made too early.
    ///   - dataFolder: The folder the call declared.
    case storeMadeBeforeDataFolder(storeFolder: URL, dataFolder: URL)

    /// A value set on a store whose writes are coalesced (``StoreWritePolicy/coalescing(within:clock:)``)
    /// could not be written — at the end of its window, or when the process exited — and is
    /// lost: the document keeps the value written before it. At exit, the process then ends
    /// with ``StoreWritePolicy/valuesLostExitStatus``.
    ///
    /// - Parameters:
    ///   - key: The key of the store's document.
    ///   - error: Why it could not be written.
    case pendingValueLost(key: String, StorageError)

    /// Prints the issue to standard error, prefixed with `SingletonStores:`.
    public static let printToStandardError: @Sendable (StoreIssue) -> Void = { issue in
        writeLineToStandardError("SingletonStores: \(issue)")
    }

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noProductionValue(let key):
            "No store is set for \(key): it declares no production value. Override it with "
                + "withStores { $0[\(key).self] = … } in this test or preview, or conform "
                + "\(key) to ProductionStoreKey. Its stub was used instead."
        case .productionValueForbidden(let key):
            "The production store of \(key) was read while production stores are forbidden "
                + "(strict mode). Override it for this test — .stores { $0[\(key).self] = … } or "
                + "withStores { … } — or use stubs for every store (.stubbedStores, useStubs()). "
                + "Its stub was used instead; the production store was not touched."
        case .storesAlreadyPrepared:
            "prepareStores was called more than once; only the first call's values apply. Make all "
                + "launch-time changes in one prepareStores call."
        case .storesPreparedAfterUse:
            "prepareStores was called after a store had been read (or withStores had run); its "
                + "values were ignored. Call it first thing at launch, before any code reads "
                + "StoreValues.current."
        case .launchVariantsIgnored(let error):
            "The store variants of this launch were ignored, and every store is the one it would be "
                + "without them: \(error)"
        case .storageRecovered(let error):
            "\(error)"
        case .pendingValueLost(let key, let error):
            "The last value set on the store \"\(key.escapingControlCharacters)\" was not saved and is lost: \(error.problem) The saved "
                + "document keeps the value saved before it; set the value again once the problem is fixed."
        case .unusableStoredValue(let key, let message):
            "The stored \(key) document: \(message)"
        case .storeMadeBeforeDataFolder(let storeFolder, let dataFolder):
            "prepareStores made a store before it declared the data folder: that store keeps its documents in "
                + "\(storeFolder.path(percentEncoded: false).escapingControlCharacters), not in "
                + "\(dataFolder.path(percentEncoded: false).escapingControlCharacters) "
                + "like the stores made after it. Set $0.dataFolder first in prepareStores."
        case .documentKeyInUse(let key, let usedBy, let requestedBy):
            "Two stores use the document \"\(key)\": it holds \(usedBy), and a new store of \(requestedBy) "
                + "was made on it. The new store starts from its default and never reads, moves or "
                + "writes the document. Give one of the two stores another key."
        }
    }
}
