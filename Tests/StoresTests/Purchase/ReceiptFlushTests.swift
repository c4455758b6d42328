#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import SingletonStores
import SingletonStoresTestSupport
@testable import Stores
import Testing

/// A receipt whose flush failed, in place and again after the slot was written again: it is
/// recorded (others read it), and written anew before anything is credited on it, so that a
/// power cut can't leave a credit without its receipt.
@Suite("A receipt whose flush failed")
struct ReceiptFlushTests {
    /// A receipts document in place (two slots whole), so the next write goes in place.
    static func backend(in folder: URL, issues: Recorder<StoreIssue>) async throws -> LocalPurchaseBackend {
        let backend = LocalPurchaseBackend(
            storage: FileStorage(folder: folder, reportNotice: { _ in }),
            reportIssue: { issues.append($0) })
        _ = try await backend.purchase(PurchaseProduct.boostItems(1))
        return backend
    }

    @Test func theReceiptsAreWrittenAgainBeforeTheyAreUsed() async throws {
        try await withTemporaryFolder { folder in
            let issues = Recorder<StoreIssue>()
            let backend = try await Self.backend(in: folder, issues: issues)
            // The write's flush and its second flush fail; the receipts' next write (the rewrite)
            // flushes.
            let faults = FileFaults([.fsync: [EIO, EIO, 0]])
            let outcome = try await FileFaults.$current.withValue(faults) { try await backend.purchase(.boostItems(2)) }
            #expect(faults.isUsedUp, "the receipts were written and flushed a third time")
            guard case .purchased(let receipt) = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(try backend.pendingReceipts().map(\.id).contains(receipt.id))
            #expect(issues.values.isEmpty, "on disk: nothing to report")
        }
    }

    @Test func aRewriteThatIsNotFlushedEitherIsReported() async throws {
        try await withTemporaryFolder { folder in
            let issues = Recorder<StoreIssue>()
            let backend = try await Self.backend(in: folder, issues: issues)
            let faults = FileFaults([.fsync: [EIO, EIO, EIO, EIO]])
            let outcome = try await FileFaults.$current.withValue(faults) { try await backend.purchase(.boostItems(2)) }
            #expect(faults.isUsedUp)
            guard case .purchased(let receipt) = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(try backend.pendingReceipts().map(\.id).contains(receipt.id), "recorded: others read it")
            let reported = issues.values
            guard reported.count == 1, case .storageRecovered(let error) = reported[0], case .notDurable = error else {
                Issue.record("reported \(reported)")
                return
            }
        }
    }
}

/// The receipts document keeps the newest credited receipts however many wait to be credited.
@Suite("Receipts kept while many wait")
struct ReceiptsKeptWhileManyWaitTests {
    /// A purchase credited while 100 others wait (their ledger was busy) keeps its receipt: it
    /// was forgotten at once before, when the waiting ones alone passed the 64 kept.
    @Test func aCreditedReceiptIsKeptBesideManyWaiting() async throws {
        try await withTemporaryFolder { folder in
            let backend = LocalPurchaseBackend(storage: FileStorage(folder: folder, reportNotice: { _ in }))
            for _ in 0..<100 { _ = try await backend.purchase(PurchaseProduct.boostItems(1)) }
            guard case .purchased(let receipt) = try await backend.purchase(PurchaseProduct.boostItems(2)) else {
                Issue.record("not bought")
                return
            }
            try backend.finish([receipt])
            let restorable = try await backend.restore()
            #expect(restorable.count == 100, "the waiting ones")
            let stored = try FileStorage(folder: folder, reportNotice: { _ in }).load(PurchaseDocuments.storedReceipts).value
            #expect(stored.count == 101)
            #expect(stored.last?.receipt.id == receipt.id && stored.last?.credited == true)
        }
    }
}
