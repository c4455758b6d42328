import SingletonStoresLocking
import Foundation
import Stores

/// `demo-cli purchase buy|restore|show [--watch]`: the purchase ledger.
enum PurchaseCommand {
    static func run(_ command: Command, context: CommandContext) async -> ExitStatus {
        let stores = context.stores()
        let purchases = stores.purchases
        switch command {
        case .purchaseBuy(let product):
            do {
                switch try await purchases.buy(product) {
                case .purchased:
                    context.console.print("Bought \(product). \(summary(purchases))")
                    return .success
                case .cancelled:
                    return context.fail("The purchase of \(product) was cancelled; nothing was charged.")
                }
            } catch .notYetCredited(let receipt, let reason) {
                // Taken, not lost: say so, and what is owned now (without it).
                _ = context.fail(PurchaseError.notYetCredited(receipt, reason: reason).description)
                context.console.print(
                    "Bought \(product): recorded; it will be credited when the purchases store is free. Until then: \(summary(purchases))"
                )
                return .purchaseNotYetCredited
            } catch {
                return context.fail(error)
            }
        case .purchaseRestore:
            do {
                let added = try await purchases.restore()
                context.console.print("Restored \(added) purchase\(added == 1 ? "" : "s"). \(summary(purchases))")
                return .success
            } catch {
                return context.fail(error)
            }
        case .purchaseShow:
            for line in lines(purchases) { context.console.print(line) }
            return .success
        case .purchaseWatch:
            return await watch(purchases, console: context.console)
        default:
            return .usage
        }
    }

    /// What `purchase show` prints, one fact a line; the flow's text is escaped (a failure
    /// reason may quote anything).
    static func lines(_ purchases: PurchaseManager) -> [String] {
        [
            "boost items: \(purchases.ownedBoostItems)",
            "premium: \(premium(purchases))",
            "flow: \(purchases.flowState.description.escapingControlCharacters)",
            "ledger entries: \(purchases.purchaseLedger.entryCount)",
        ]
    }

    /// `purchase show --watch`: the lines of `show`, then each change of the ledger (another
    /// run's purchase, restore or spent item) or of this run's purchase flow, until Ctrl-C.
    /// Redrawn in place on a terminal; piped, each change prints the lines that changed.
    ///
    /// The purchase flow lives in each run's memory, so another run's flow is not shown —
    /// only what it records in the ledger. Premium reaching its end is shown at the next change.
    private static func watch(_ purchases: PurchaseManager, console: Console) async -> ExitStatus {
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let ledger = purchases.observeLedger { _ in continuation.yield() }
        let flow = purchases.observeFlow { _ in continuation.yield() }
        defer {
            ledger.cancel()
            flow.cancel()
        }
        return await Following.run(console: console, events: changes) { _ in lines(purchases) }
    }

    private static func summary(_ purchases: PurchaseManager) -> String {
        "You own \(BoostCommand.items(purchases.ownedBoostItems)); \(premium(purchases))."
    }

    private static func premium(_ purchases: PurchaseManager) -> String {
        guard let expiry = purchases.premiumExpiry else { return "no premium" }
        let date = expiry.formatted(.iso8601)
        return purchases.isPremium ? "premium until \(date)" : "premium ended \(date)"
    }
}
