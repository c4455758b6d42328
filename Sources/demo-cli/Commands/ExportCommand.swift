import Foundation
import Stores

/// `demo-cli export`: the state of every store as one JSON document on standard output, for a
/// bug report. The profile's account id and the purchase receipts are redacted; the boost is
/// shown as what a screen shows (time left, paused, the recorded end).
enum ExportCommand {
    /// What the boost's part of the snapshot says.
    struct BoostState: Encodable {
        let remainingSeconds: Int
        let isPaused: Bool
        let endDate: Date?
    }

    static func run(context: CommandContext) -> ExitStatus {
        let stores = context.stores()
        var snapshot = StoreSnapshot()
        do throws(StorageError) {
            let boost = stores.boost
            try snapshot.add(
                "boost", BoostState(remainingSeconds: boost.remainingSeconds, isPaused: boost.isPaused, endDate: boost.endDate))
            try snapshot.add("profile", stores.profile.profile)
            try snapshot.add("purchases", stores.purchases.purchaseLedger)
            try snapshot.add("apiTarget", stores.apiTarget.target)
            context.console.print(String(decoding: try snapshot.json(), as: UTF8.self))
            return .success
        } catch {
            return context.fail(error.description)
        }
    }
}
