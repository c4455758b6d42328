import Foundation
import FuzzSupport
import Stores
import Timers

/// The `receipts` document of the local purchase backend: decoded as a restore reads it, then
/// restored into an empty ledger by `PurchaseManager.restore()`, and the ledger's counts read.
@main
enum FuzzReceipts {
    static func main() { runLibFuzzer(fuzzReceipts) }
}

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceipts(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let receipts = Documents.decode([PurchaseReceipt].self, UnsafeRawBufferPointer(start: start, count: count)) else {
        return 0
    }
    for receipt in receipts {
        _ = receipt.product.description
    }
    let storage = InMemoryStorage(["receipts": receipts])
    let purchases = PurchaseManager(
        storage: storage, wallClock: .fixed(fuzzNow), boost: nil,
        center: NotificationCenter(), reportIssue: { _ in })
    blocking {
        _ = try? await purchases.restore()
        _ = try? await purchases.restore()   // a second restore adds nothing
    }
    _ = purchases.ownedBoostItems
    _ = purchases.isPremium
    _ = purchases.premiumExpiry?.formatted(.iso8601)
    return 0
}

/// Runs `body` to completion on the fuzzer's thread.
private func blocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}
