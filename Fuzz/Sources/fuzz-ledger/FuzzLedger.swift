import Foundation
import FuzzSupport
import Stores
import Timers

/// The `purchases` document: decoded as a launch reads it, then what `PurchaseManager` and the
/// demo CLI derive from it (items owned, premium's end, receipts).
@main
enum FuzzLedger {
    static func main() { runLibFuzzer(fuzzLedger) }
}

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLedger(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let ledger = Documents.decode(PurchaseLedger.self, UnsafeRawBufferPointer(start: start, count: count)) else {
        return 0
    }
    let storage = InMemoryStorage(["purchases": ledger])
    let purchases = PurchaseManager(
        storage: storage, wallClock: .fixed(fuzzNow), boost: nil,
        center: NotificationCenter(), reportIssue: { _ in })
    _ = purchases.ownedBoostItems
    _ = purchases.isPremium
    _ = purchases.premiumExpiry?.formatted(.iso8601)
    _ = purchases.purchaseLedger.receiptIDs
    for entry in purchases.purchaseLedger.entries {
        _ = String(describing: entry)
    }
    return 0
}
