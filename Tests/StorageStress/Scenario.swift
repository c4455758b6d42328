import Foundation
import SingletonStoresTestSupport
import Stores

/// The scenarios of `storage-stress` that drive the real stores on a data folder.
struct Scenario {
    let folder: URL

    private var storage: FileStorage { FileStorage(folder: folder) }

    /// The stores as an app builds them, with problems collected.
    private func stores(problems: ProblemLog = ProblemLog()) -> (BoostTimeManager, PurchaseManager, UserProfileStore) {
        let center = NotificationCenter()
        let report: @Sendable (StoreIssue) -> Void = { problems.append("\($0)") }
        let boost = BoostTimeManager(storage: storage, center: center, reportIssue: report)
        let purchases = PurchaseManager(storage: storage, boost: boost, center: center, reportIssue: report)
        let profile = UserProfileStore(storage: storage, center: center, reportIssue: report)
        return (boost, purchases, profile)
    }

    /// Uses one item; returns the exit status.
    func use(seconds: Int) throws -> Int32 {
        let (_, purchases, _) = stores()
        do {
            try purchases.useBoostItem(duration: seconds)
            print("started")
            return 0
        } catch .boostNotStarted(.alreadyRunning) {
            print("already running")
            return 3
        } catch .noBoostItems {
            print("no items")
            return 4
        }
    }

    func buy(items: Int) async throws {
        let (_, purchases, _) = stores()
        try await purchases.buy(.boostItems(items))
    }

    /// Buys, uses short boosts and renames the profile, forever; prints `step` after each one.
    func churn(seed: UInt64) async throws {
        var random = SplitMix(seed: seed)
        let (_, purchases, profile) = stores()
        while true {
            defer { FileHandle.standardOutput.write(Data("step\n".utf8)) }
            switch random.next() % 3 {
            case 0:
                try await purchases.buy(.boostItems(1))
                purchases.acknowledge()
            case 1:
                do { try purchases.useBoostItem(duration: 1) } catch .boostNotStarted, .noBoostItems {}
            default:
                try profile.setNickname("n\(random.next() % 1_000)")
            }
        }
    }

    func report() throws {
        let problems = ProblemLog()
        let (boost, purchases, _) = stores(problems: problems)
        let ledger = purchases.purchaseLedger
        let used = ledger.entries.filter { $0.kind == .boostItemUsed }
        let receipts = try storage.load(
            StoreDocument<[PurchaseReceipt]>(key: "receipts", default: [], identity: "PurchaseReceipts"))
        let bought = ledger.entries.reduce(0) { sum, entry in
            if case .boostItemsBought(let count) = entry.kind { return sum + count }
            return sum
        }
        let report = StoreReport(
            items: purchases.ownedBoostItems,
            boostSeconds: boost.remainingSeconds,
            usedEntries: used.count,
            usedEntriesWithGrant: used.filter { $0.boost != nil }.count,
            creditedReceiptIDs: (ledger.checkpoint?.receiptIDs ?? []) + ledger.entries.compactMap(\.receiptID),
            receiptIDs: receipts.value.map(\.id),
            itemsBought: bought,
            checkpointBalance: ledger.checkpoint?.boostItemBalance ?? 0,
            newestGrantSecondsLeft: ledger.latestBoostGrant.map { $0.endDate.timeIntervalSinceNow },
            problems: problems.all + (receipts.recovery.map { ["\($0)"] } ?? []))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }
}

/// Problems reported by the stores, from any thread.
final class ProblemLog: @unchecked Sendable {
    private let lock = NSLock()
    private var problems: [String] = []

    func append(_ problem: String) {
        lock.withLock { problems.append(problem) }
    }

    var all: [String] { lock.withLock { problems } }
}
