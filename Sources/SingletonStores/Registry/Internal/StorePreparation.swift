import Foundation
import SingletonStoresLocking

/// The once-only launch-time preparation behind ``prepareStores(_:)``: open until the registry's
/// default is first read, which seals it.
///
/// The process has one (``process``), sealed by the initialiser of `StoreValues.taskLocal`;
/// tests make their own to check the rules without touching the process's registry.
final class StorePreparation: Sendable {
    /// The process's preparation.
    static let process = StorePreparation()

    private enum Phase {
        case open
        case prepared(StoreValues)
        case sealed
    }

    private let phase = Locked(Phase.open)

    /// The values ``prepare(_:reportIssue:)`` is preparing, while their update runs in this
    /// task (or on this thread): what they declare so far, so that a store the update makes —
    /// `$0.likes = ValueStore(key: "likes", …)` — keeps its documents in the folder declared
    /// before it, without reading the registry (which would seal the preparation).
    @TaskLocal static var inProgress: PreparationInProgress?

    /// Applies `updateValues` to fresh values and keeps them as the process's base, unless the
    /// base was already prepared or sealed, in which case it reports why and changes nothing.
    ///
    /// The update runs outside the lock (it is the caller's code); if it reads the registry,
    /// that read seals the preparation first and the call is reported as too late.
    func prepare(
        _ updateValues: (inout StoreValues) throws -> Void,
        reportIssue: (StoreIssue) -> Void
    ) rethrows -> Bool {
        var values = StoreValues()
        let progress = PreparationInProgress()
        try Self.$inProgress.withValue(progress) { try updateValues(&values) }
        // A store made before the folder was declared keeps its documents elsewhere: say so.
        if let declared = values.dataFolder?.standardizedFileURL,
            let early = progress.storageBeforeDeclaration.withLock({ $0 }), early != declared
        {
            reportIssue(.storeMadeBeforeDataFolder(storeFolder: early, dataFolder: declared))
        }
        let refusal: StoreIssue? = phase.withLock { phase in
            switch phase {
            case .open:
                phase = .prepared(values)
                return nil
            case .prepared:
                return .storesAlreadyPrepared
            case .sealed:
                return .storesPreparedAfterUse
            }
        }
        guard let refusal else { return true }
        reportIssue(refusal)
        return false
    }

    /// Closes preparation and returns the base values: the prepared ones, or the defaults.
    func seal() -> StoreValues {
        phase.withLock { phase in
            defer { phase = .sealed }
            if case .prepared(let values) = phase { return values }
            return StoreValues()
        }
    }
}

/// What the values being prepared declare so far (see ``StorePreparation/inProgress``).
final class PreparationInProgress: Sendable {
    /// The data folder they declare (``StoreValues/dataFolder``), once set.
    let dataFolder = Locked<URL?>(nil)
    /// The folder of the first storage made without a folder before one was declared.
    let storageBeforeDeclaration = Locked<URL?>(nil)
}
