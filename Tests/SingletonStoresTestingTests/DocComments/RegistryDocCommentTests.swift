// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of the registry's doc comments (StoreValues, withStores, withEscapedStores),
// verbatim between the markers, so that they compile and run; the cart, the wallet and checkout
// they assume are declared here and in TestingDocCommentTests.swift.
// QuickStartTests/DocCommentSnippetTests checks that the comments and this file agree.
import Foundation
import SingletonStoresTesting
import Synchronization
import Testing

protocol WalletContract: Sendable {
    var balance: Int { get }
}

struct WalletStub: WalletContract {
    var balance: Int
}

extension WalletStore: WalletContract {
    var balance: Int { core.state }
}

enum CartKey: ProductionStoreKey {
    static let shared = CartStore(center: NotificationCenter())
    static var productionValue: any CartContract { shared }
    static var stubValue: any CartContract { CartStub(itemCount: 0) }
}

enum WalletKey: ProductionStoreKey {
    static let shared = WalletStore(balance: 1_000, center: NotificationCenter())
    static var productionValue: any WalletContract { shared }
    static var stubValue: any WalletContract { WalletStub(balance: 0) }
}

extension StoreValues {
    var cart: any CartContract {
        get { self[CartKey.self] }
        set { self[CartKey.self] = newValue }
    }
    var wallet: any WalletContract {
        get { self[WalletKey.self] }
        set { self[WalletKey.self] = newValue }
    }
}

func checkout() {
    _ = (StoreValues.current.cart.itemCount, StoreValues.current.wallet.balance)
}

func checkoutSummary() -> String {
    "\(StoreValues.current.cart.itemCount) items, \(StoreValues.current.wallet.balance) in the wallet"
}

// Doc "SingletonStores/Registry/StoreValues.swift" snippet 1: begin
func badgeText(cart: any CartContract = StoreValues.current.cart) -> String {
    cart.itemCount == 0 ? "" : "\(cart.itemCount)"
}

@Test func badgeShowsTheCount() {
    withStores {
        $0.cart = CartStub(itemCount: 3)
    } operation: {
        #expect(badgeText() == "3")
    }
}
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 1: end

func reportIssueExample() -> [StoreIssue] {
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 2: begin
let issues = Mutex<[StoreIssue]>([])
withStores { $0.reportIssue = { issue in issues.withLock { $0.append(issue) } } } operation: {
    checkout()
}
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 2: end
    return issues.withLock { $0 }
}

func useStubsExample() {
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 3: begin
withStores { $0.useStubs() } operation: {
    checkout()  // reads every store's stub
}
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 3: end
}

func forbidProductionValuesExample() -> [StoreIssue] {
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 4: begin
let issues = Mutex<[StoreIssue]>([])
withStores {
    $0.forbidProductionValues()
    $0.reportIssue = { issue in issues.withLock { $0.append(issue) } }
    $0.cart = CartStub(itemCount: 1)
} operation: {
    checkout()  // reading StoreValues.current.wallet reports an issue
}
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 4: end
    return issues.withLock { $0 }
}

func withStoresExample() {
// Doc "SingletonStores/Registry/WithStores.swift" snippet 1: begin
withStores {
    $0.cart = CartStub(itemCount: 2)
    $0.wallet = WalletStub(balance: 500)
} operation: {
    #expect(checkoutSummary() == "2 items, 500 in the wallet")
}
// Doc "SingletonStores/Registry/WithStores.swift" snippet 1: end
}

// Doc "SingletonStores/Registry/WithEscapedStores.swift" snippet 1: begin
func refreshBadge(then done: @escaping @Sendable (String) -> Void) {
    withEscapedStores { stores in
        DispatchQueue.global().async {
            stores.yield {
                done(badgeText())   // reads the stores of the caller's scope
            }
        }
    }
}
// Doc "SingletonStores/Registry/WithEscapedStores.swift" snippet 1: end

@Suite struct RegistryDocCommentTests {
    @Test(.productionStores) func aCustomReporterCollectsWhatTheRegistryReports() {
        #expect(reportIssueExample().isEmpty, "the production cart and wallet are set")
    }

    @Test func stubsAndForbiddenProductionReads() {
        useStubsExample()
        #expect(forbidProductionValuesExample() == [.productionValueForbidden(key: String(reflecting: WalletKey.self))])
        withStoresExample()
    }

    @Test func theEscapedStoresReachAQueue() async {
        let badge = await withStores { $0.cart = CartStub(itemCount: 4) } operation: {
            await withCheckedContinuation { continuation in
                refreshBadge { continuation.resume(returning: $0) }
            }
        }
        #expect(badge == "4")
    }
}
