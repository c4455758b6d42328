import SingletonStoresLocking
import Foundation
import Stores
import Timers

/// The composition root: builds the production stores from the command-line options instead of
/// using their `.shared` singletons, so `--data-dir` and `--speed` reach every store.
///
/// ```swift
/// let stores = DemoStores(dataDirectory: dataFolder, clock: ContinuousClock(), console: console)
/// let nickname = stores.profile.profile.nickname   // builds the profile store alone
/// ```
///
/// Each store is built on its first use, so a command reads only the documents of the stores
/// it uses: `profile show` reads the profile alone, `purchase show` the ledger and the local
/// backend's receipts, `boost use` the boost and the ledger.
///
/// Storage problems (a damaged file kept aside, an unknown gender code) are printed as one
/// `demo-cli: warning: …` line each on standard error; the stores carry on from their defaults.
struct DemoStores: Sendable {
    /// Where every document lives.
    let storage: FileStorage
    /// The notification center the stores post to: this process's own.
    let center: NotificationCenter
    private let boostStore: LazyStore<BoostTimeManager>
    private let profileStore: LazyStore<UserProfileStore>
    private let purchasesStore: LazyStore<PurchaseManager>
    private let apiTargetStore: LazyStore<APITargetStore>
    /// The change log `--log-changes` started, kept for as long as the stores.
    private let changeLog: ObservationToken?

    /// The persisted boost, resumed from an earlier run.
    var boost: BoostTimeManager { boostStore.value }
    /// The stored profile.
    var profile: UserProfileStore { profileStore.value }
    /// The purchases, spending items on ``boost``.
    var purchases: PurchaseManager { purchasesStore.value }
    /// The stored API target.
    var apiTarget: APITargetStore { apiTargetStore.value }

    /// Names the stores, each to be built on its first use.
    ///
    /// - Parameters:
    ///   - dataDirectory: The data folder, `~` already expanded (see ``DataFolderPath``); `nil` for
    ///     the default folder (see ``Stores/FileStorage``).
    ///   - clock: The clock the boost counts down on.
    ///   - console: Where warnings go.
    ///   - boostStorage: Where the boost is kept; the data folder by default. The showcase
    ///     passes an in-memory storage so its short boost never replaces one started with
    ///     `boost start`.
    ///   - logsChanges: Whether to print each change the stores commit on standard error.
    init(
        dataDirectory: String?, clock: some Clock<Duration>, console: Console, boostStorage: (any StoreStorage)? = nil,
        logsChanges: Bool = false
    ) {
        let storage = Self.storage(dataDirectory: dataDirectory, console: console)
        let center = NotificationCenter()
        let report = Self.reporter(console)
        let boost = LazyStore {
            BoostTimeManager(
                clock: clock, wallClock: .system, storage: boostStorage ?? storage, center: center, reportIssue: report)
        }
        self.storage = storage
        self.center = center
        changeLog = logsChanges ? Self.logChanges(on: center, console: console) : nil
        boostStore = boost
        profileStore = LazyStore { UserProfileStore(storage: storage, center: center, reportIssue: report) }
        purchasesStore = LazyStore {
            PurchaseManager(
                storage: storage, wallClock: .system, boost: DeferredBoost(store: boost), center: center, reportIssue: report)
        }
        apiTargetStore = LazyStore { APITargetStore(storage: storage, center: center, reportIssue: report) }
    }

    /// The stores built so far, by name: what a command has read.
    var builtStores: [String] {
        [
            ("boost", boostStore.isBuilt), ("profile", profileStore.isBuilt), ("purchases", purchasesStore.isBuilt),
            ("apiTarget", apiTargetStore.isBuilt),
        ].filter(\.1).map(\.0)
    }

    /// The storage for the data folder (already `~`-expanded by ``DataFolderPath``), or the
    /// default folder of the `demo-cli` app; notices about the folder (made private) are
    /// printed as warnings.
    static func storage(dataDirectory: String?, console: Console) -> FileStorage {
        FileStorage(
            folder: dataDirectory.map { URL(filePath: $0, directoryHint: .isDirectory) }, appName: "demo-cli",
            reportNotice: { notice in
                console.printError("demo-cli: warning: \("\(notice)".escapingControlCharactersLeavingBackslashes)")
            })
    }

    /// Prints each change the stores on `center` commit as one `demo-cli: change: …` line on
    /// standard error: stored text escaped, each side cut to 200 characters.
    static func logChanges(on center: NotificationCenter, console: Console) -> ObservationToken {
        StoreChangeLog.start(center: center) { entry in
            func cut(_ text: String) -> String {
                text.count > 200 ? "\(text.prefix(200))…" : text
            }
            let origin = entry.isFromOtherProcess ? " (another run)" : ""
            let line = "\(entry.store): \(cut(entry.old)) → \(cut(entry.new))\(origin)"
            console.printError("demo-cli: change: \(line.escapingControlCharacters)")
        }
    }

    /// Prints each store issue as one warning line on standard error, control characters
    /// escaped (an issue names files, whose paths may contain anything).
    static func reporter(_ console: Console) -> @Sendable (StoreIssue) -> Void {
        { issue in
            console.printError("demo-cli: warning: \("\(issue)".escapingControlCharactersLeavingBackslashes)")
            if case .storageRecovered(let error) = issue, error.isNotDurable {
                NotDurableWrites.occurred.store(true, ordering: .relaxed)
            }
        }
    }

    /// The header the showcase shows.
    var showcaseHeader: ShowcaseHeader {
        ShowcaseHeader(
            nickname: profile.profile.nickname,
            gender: profile.profile.gender,
            boostItems: purchases.ownedBoostItems,
            premiumUntil: purchases.isPremium ? purchases.premiumExpiry : nil,
            purchaseFlow: purchases.flowState.description)
    }
}
