import SingletonStoresLocking
import Foundation
import Stores

/// `demo-cli purchase buy|restore|show`: the purchase ledger.
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
            } catch {
                return context.fail(error.description)
            }
        case .purchaseRestore:
            do {
                let added = try await purchases.restore()
                context.console.print("Restored \(added) purchase\(added == 1 ? "" : "s"). \(summary(purchases))")
                return .success
            } catch {
                return context.fail(error.description)
            }
        case .purchaseShow:
            context.console.print("boost items: \(purchases.ownedBoostItems)")
            context.console.print("premium: \(premium(purchases))")
            context.console.print("flow: \(purchases.flowState.description.escapingControlCharacters)")
            context.console.print("ledger entries: \(purchases.purchaseLedger.entries.count)")
            return .success
        default:
            return .usage
        }
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
