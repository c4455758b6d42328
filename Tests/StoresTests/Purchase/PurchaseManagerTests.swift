import SingletonStoresTestSupport
import Foundation
import StoreObservation
import SingletonStores
import SingletonStoresTesting
import Stores
import Testing
import Timers

/// A purchase manager on in-memory storage, a manual wall clock, a private center and a boost
/// manager on a manual clock.
private struct PurchaseRig {
    let center = NotificationCenter()
    let recorder: ChangeRecorder
    let storage = InMemoryStorage()
    let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
    let clock = ManualClock()
    let boost: BoostTimeManager
    let purchases: PurchaseManager

    init(backend: (any PurchaseBackend)? = nil) {
        recorder = ChangeRecorder(center: center)
        boost = BoostTimeManager(clock: clock, wallClock: wall.wallClock, storage: storage, center: center)
        purchases = PurchaseManager(
            backend: backend, storage: storage, wallClock: wall.wallClock, boost: boost, center: center)
    }

    var flow: [PurchaseFlowState] { recorder.newValues(of: .purchaseFlow) }
}

@Suite struct PurchaseManagerTests {
    @Test func buyingMovesTheFlowAndRecordsTheLedger() async throws {
        let rig = PurchaseRig()
        let outcome = try await rig.purchases.buy(.boostItems(3))
        guard case .purchased(let receipt) = outcome else {
            Issue.record("expected a purchase, got \(outcome)")
            return
        }
        #expect(receipt.product == .boostItems(3))
        #expect(rig.purchases.ownedBoostItems == 3)
        #expect(rig.flow == [.purchasing(.boostItems(3)), .purchased(.boostItems(3))])
        #expect(rig.recorder.newValues(of: .purchaseLedger).last?.boostItems == 3)
        rig.purchases.acknowledge()
        #expect(rig.purchases.flowState == .idle)
    }

    @Test func failedPurchaseEndsInFailedAndChangesNoLedger() async {
        let rig = PurchaseRig(backend: ScriptedPurchaseBackend([.fail("card declined")]))
        await #expect(throws: PurchaseError.failed(reason: "card declined")) {
            try await rig.purchases.buy(.boostItems(1))
        }
        #expect(rig.purchases.ownedBoostItems == 0)
        #expect(
            rig.flow == [.purchasing(.boostItems(1)), .failed(reason: PurchaseError.failed(reason: "card declined").description)])
    }

    @Test func cancelledPurchaseEndsInCancelled() async throws {
        let rig = PurchaseRig(backend: ScriptedPurchaseBackend([.cancel]))
        #expect(try await rig.purchases.buy(.premium(days: 7)) == .cancelled)
        #expect(rig.purchases.premiumExpiry == nil)
        #expect(rig.flow.last == .cancelled)
    }

    @Test func aSecondPurchaseWhileOneRunsIsRefusedAsBusy() async throws {
        let clock = ManualClock()
        let backend = ScriptedPurchaseBackend([.delay(.seconds(2), then: .succeed)], clock: clock)
        let rig = PurchaseRig(backend: backend)
        let first = Task { try await rig.purchases.buy(.boostItems(1)) }
        try await clock.waitForSleepers(1)  // the payment sheet is up
        #expect(rig.purchases.flowState == .purchasing(.boostItems(1)))
        await #expect(throws: PurchaseError.busy(.purchasing(.boostItems(1)))) {
            try await rig.purchases.buy(.boostItems(5))
        }
        await clock.advance(by: .seconds(2))
        _ = try await first.value
        #expect(rig.purchases.ownedBoostItems == 1)
        #expect(backend.purchaseCount == 1, "the refused purchase never reached the backend")
    }

    @Test(arguments: [PurchaseProduct.boostItems(0), .boostItems(-2), .premium(days: 0)])
    func emptyProductsAreRefused(product: PurchaseProduct) async {
        let rig = PurchaseRig()
        await #expect(throws: PurchaseError.invalidProduct(product)) { try await rig.purchases.buy(product) }
        #expect(rig.purchases.flowState == .idle)
    }

    @Test func restoreAddsMissingReceiptsOnce() async throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let receipts = [
            PurchaseReceipt(id: "r1", product: .boostItems(2), date: date),
            PurchaseReceipt(id: "r2", product: .premium(days: 30), date: date),
        ]
        let rig = PurchaseRig(backend: ScriptedPurchaseBackend(receipts: receipts))
        #expect(try await rig.purchases.restore() == 2)
        #expect(rig.purchases.flowState == .purchased(nil))
        rig.purchases.acknowledge()
        #expect(try await rig.purchases.restore() == 0, "restoring twice adds nothing")
        #expect(rig.purchases.ownedBoostItems == 2)
        #expect(rig.purchases.premiumExpiry == date.addingTimeInterval(30 * 86_400))
    }

    @Test func premiumExpiryFollowsTheInjectedWallClock() async throws {
        let rig = PurchaseRig()
        try await rig.purchases.buy(.premium(days: 30))
        rig.purchases.acknowledge()
        #expect(rig.purchases.isPremium)
        rig.wall.advance(by: .seconds(29 * 86_400))
        try await rig.purchases.buy(.premium(days: 30))  // adds to the day that is left
        #expect(rig.purchases.premiumExpiry == Date(timeIntervalSince1970: 1_700_000_000 + 60 * 86_400))
        rig.wall.advance(by: .seconds(31 * 86_400 + 1))
        #expect(!rig.purchases.isPremium)
    }

    @Test func ledgerAndReceiptsPersistAcrossLaunches() async throws {
        try await withTemporaryFolder { folder in
            let first = PurchaseManager(storage: FileStorage(folder: folder), center: NotificationCenter())
            try await first.buy(.boostItems(2))
            let second = PurchaseManager(storage: FileStorage(folder: folder), center: NotificationCenter())
            #expect(second.ownedBoostItems == 2)
            #expect(try await second.restore() == 0, "the local backend's receipts are already in the ledger")
        }
    }

    @Test func usingABoostItemSpendsOneAndStartsTheBoost() async throws {
        let rig = PurchaseRig()
        try await rig.purchases.buy(.boostItems(2))
        try rig.purchases.useBoostItem(duration: 60)
        #expect(rig.purchases.ownedBoostItems == 1)
        #expect(rig.boost.remainingSeconds == 60)
    }

    @Test func usingAnItemWithNoneOwnedChangesNothing() {
        let rig = PurchaseRig()
        #expect(throws: PurchaseError.noBoostItems) { try rig.purchases.useBoostItem(duration: 60) }
        #expect(!rig.boost.isInBoostTime)
    }

    /// Documented policy: a running boost is not extended; the item is not even spent.
    @Test func usingAnItemWhileABoostRunsIsRefusedAndTheItemIsNotSpent() async throws {
        let rig = PurchaseRig()
        try await rig.purchases.buy(.boostItems(2))
        try rig.purchases.useBoostItem(duration: 60)
        let entries = rig.purchases.purchaseLedger.entries
        await rig.clock.advance(by: .seconds(10))
        #expect(throws: PurchaseError.boostNotStarted(.alreadyRunning(remainingSeconds: 50))) {
            try rig.purchases.useBoostItem(duration: 60)
        }
        #expect(rig.purchases.ownedBoostItems == 1)
        #expect(rig.boost.remainingSeconds == 50)
        #expect(rig.purchases.purchaseLedger.entries == entries, "nothing spent, nothing refunded")
    }

    @Test func aBoostThatCannotStartDoesNotCostAnItem() async throws {
        let rig = PurchaseRig()
        try await rig.purchases.buy(.boostItems(1))
        #expect(throws: PurchaseError.boostNotStarted(.invalidDuration(0))) {
            try rig.purchases.useBoostItem(duration: 0)
        }
        #expect(rig.purchases.ownedBoostItems == 1)
    }

    @Test func hundredConcurrentUsesOfOneItemSpendExactlyOneAndStartOneBoost() async throws {
        let rig = PurchaseRig()
        try await rig.purchases.buy(.boostItems(1))
        let starts = Recorder<Int>()
        let token = NotificationChannel.boostTime.observe(center: rig.center) { seconds in
            if seconds == 300 { starts.append(seconds) }
        }
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    do {
                        try rig.purchases.useBoostItem(duration: 300)
                        return "started"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        token.cancel()
        #expect(outcomes.filter { $0 == "started" }.count == 1)
        let refused = PurchaseError.boostNotStarted(.alreadyRunning(remainingSeconds: 300)).description
        #expect(outcomes.filter { $0 == refused }.count == 99, "the running boost refuses the others before they spend")
        #expect(rig.purchases.ownedBoostItems == 0)
        #expect(rig.purchases.purchaseLedger.entries.filter { $0.kind == .boostItemUsed }.count == 1)
        #expect(starts.count == 1, "one boost started")
    }

    @Test func corruptedLedgerIsKeptAsideAndReported() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)  // a folder the library made: bad files are kept aside
            try Data([0xFF, 0x00, 0x13]).write(to: folder.appending(path: "purchases.json"))
            let reports = Recorder<StoreIssue>()
            let purchases = PurchaseManager(
                storage: FileStorage(folder: folder), center: NotificationCenter(),
                reportIssue: { reports.append($0) })
            #expect(purchases.ownedBoostItems == 0)
            let problem = try #require(purchases.loadProblem)
            #expect(problem.keptFile != nil)
            #expect(reports.values == [.storageRecovered(problem)])
        }
    }

    /// The production manager and the stub follow one spec.
    @Test func stubMatchesProduction() async throws {
        let parity = ContractParity<any PurchaseStoreContract>(
            production: { PurchaseRig().purchases },
            stub: { PurchaseStoreStub(boost: BoostTimeManagerStub(remainingSeconds: 0, center: NotificationCenter())) })
        try await parity.verify { purchases in
            var seen: [String] = []
            try await purchases.buy(.boostItems(2))
            seen.append("owned \(purchases.ownedBoostItems)")
            try purchases.useBoostItem(duration: 30)
            seen.append("owned \(purchases.ownedBoostItems)")
            do { try purchases.useBoostItem(duration: 30) } catch { seen.append("\(error)") }
            seen.append("owned \(purchases.ownedBoostItems) premium \(purchases.isPremium)")
            return seen
        }
    }
}

@Suite("PurchaseManager across processes", .ownThread)
struct PurchaseProcessTests {
    @Test func twoProcessesEachBuying200BoostItemsEndWith400() throws {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let binary = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        try withTemporaryFolder { folder in
            let succeeded = try BuiltProduct.runSimultaneously(
                binary, arguments: [folder.path(percentEncoded: false), "200", "purchases"], copies: 2)
            #expect(succeeded == [true, true])
            let purchases = PurchaseManager(storage: FileStorage(folder: folder), center: NotificationCenter())
            #expect(purchases.ownedBoostItems == 400)
            #expect(purchases.loadProblem == nil)
        }
    }
}
