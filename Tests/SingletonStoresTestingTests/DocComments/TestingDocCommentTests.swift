// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of SingletonStoresTesting's doc comments, verbatim between the markers, so that
// they compile and run. QuickStartTests/DocCommentSnippetTests checks that they agree.
import Foundation
import SingletonStoresTestSupport
import SingletonStoresLocking
import SingletonStoresTesting
import Testing

// What the examples assume an app declares: a cart and a wallet, each a store with a channel,
// a stub that behaves like the cart, a checkout that changes both, and a queue.
protocol CartContract: Sendable {
    var itemCount: Int { get }
    func add()
}

extension NotificationChannel where Payload == StoreChange<Int> {
    static let cart = NotificationChannel("DocComments.cart")
    static let wallet = NotificationChannel("DocComments.wallet")
}

final class CartStore: CartContract {
    let core: StoreCore<Int>
    init(center: NotificationCenter) { core = StoreCore(0, channel: .cart, center: center) }
    var itemCount: Int { core.state }
    func add() { core.update { $0 += 1 } }
    func removeAll() { core.set(0) }
}

final class CartStub: CartContract {
    let stub: StoreStub<Int>
    init(itemCount: Int) { stub = StoreStub(itemCount, channel: .cart) }
    var itemCount: Int { stub.state }
    func add() { stub.update { $0 += 1 } }
}

final class WalletStore: Sendable {
    let core: StoreCore<Int>
    init(balance: Int, center: NotificationCenter) { core = StoreCore(balance, channel: .wallet, center: center) }
    func pay(_ amount: Int) { core.update { $0 -= amount } }
}

func checkout(cart: CartStore, wallet: WalletStore) {
    let total = cart.itemCount * 190
    cart.removeAll()
    wallet.pay(total)
}

var syncQueue: OperationQueue { OperationQueue() }

// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 3: begin
@Test(.productionStores)
func theAppReadsTheSharedCounter() {
    #expect(StoreValues.current.counter is CounterStore)
}
// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 3: end

// Doc "SingletonStoresTesting/Folders/TemporaryStoreFolder.swift" snippet 1: begin
@Test func theFontSizeIsKeptOnDisk() throws {
    try withTemporaryStoreFolder { folder in
        try FileStorage(folder: folder).save(20, to: StoreDocument(key: "font-size", default: 17))
        let reloaded = try FileStorage(folder: folder).load(StoreDocument(key: "font-size", default: 17))
        #expect(reloaded.value == 20)
    }
}
// Doc "SingletonStoresTesting/Folders/TemporaryStoreFolder.swift" snippet 1: end

// Doc "SingletonStoresTesting/ChangeChecks/ExpectChanges.swift" snippet 1: begin
@Test func addingTwoItemsPostsTwoChanges() {
    let center = NotificationCenter()
    let cart = CartStore(center: center)

    expectChanges(on: center, [
        RecordedChange(.cart, StoreChange(old: 0, new: 1)),
        RecordedChange(.cart, StoreChange(old: 1, new: 2)),
    ]) {
        cart.add()
        cart.add()
    }
}
// Doc "SingletonStoresTesting/ChangeChecks/ExpectChanges.swift" snippet 1: end

// Doc "SingletonStoresTesting/ChangeChecks/ExpectChanges.swift" snippet 2: begin
@Test func theCartSyncsInTheBackground() async {
    let center = NotificationCenter()
    let cart = CartStore(center: center)

    await expectChanges(on: center, [
        RecordedChange(.cart, StoreChange(old: 0, new: 1)),
    ], timeout: .seconds(5)) {
        syncQueue.addOperation { cart.add() }   // posts on the queue's thread, later
    }
}
// Doc "SingletonStoresTesting/ChangeChecks/ExpectChanges.swift" snippet 2: end

// Doc "SingletonStoresTesting/Parity/ContractParity.swift" snippet 1: begin
@Test func cartStubMatchesProduction() async throws {
    let parity = ContractParity<any CartContract>(
        production: { CartStore(center: NotificationCenter()) },
        stub: { CartStub(itemCount: 0) })

    try await parity.verify { cart in
        cart.add()
        cart.add()
        return cart.itemCount
    }
}
// Doc "SingletonStoresTesting/Parity/ContractParity.swift" snippet 1: end

// Doc "SingletonStoresTesting/Recording/ChangeRecorder.swift" snippet 1: begin
@Test func checkoutUpdatesEverything() {
    let center = NotificationCenter()
    let cart = CartStore(center: center), wallet = WalletStore(balance: 500, center: center)
    cart.add()
    cart.add()
    let recorder = ChangeRecorder(center: center)

    checkout(cart: cart, wallet: wallet)  // two items at 190 each

    #expect(recorder.changes == [
        RecordedChange(.cart, StoreChange(old: 2, new: 0)),
        RecordedChange(.wallet, StoreChange(old: 500, new: 120)),
    ])
    #expect(recorder.values(of: .wallet) == [StoreChange(old: 500, new: 120)])
}
// Doc "SingletonStoresTesting/Recording/ChangeRecorder.swift" snippet 1: end

// Doc "SingletonStoresTesting/Conformance/StorageConformance.swift" snippet 1: begin
@Test func myStorageKeepsItsPromises() {
    StorageConformance.check { DictionaryStorage() }
}
// Doc "SingletonStoresTesting/Conformance/StorageConformance.swift" snippet 1: end
