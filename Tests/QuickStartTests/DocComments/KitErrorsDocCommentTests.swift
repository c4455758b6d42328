// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of the kit's error rule (StoreFailure, the typed `update` of PersistentStoreCore),
// verbatim between the markers, compiled and run on in-memory storage.
import Foundation
import SingletonStores
import Testing

// Doc "SingletonStores/Core/StoreFailure.swift" snippet 1: begin
enum WalletError: StoreFailure {
    case insufficientFunds(balance: Int)
    case storage(StorageError)
}

func pay(_ amount: Int, from wallet: ValueStore<Int>) throws(WalletError) {
    try wallet.update { (balance: inout Int) throws(WalletError) in
        guard balance >= amount else { throw .insufficientFunds(balance: balance) }
        balance -= amount
    }
}
// Doc "SingletonStores/Core/StoreFailure.swift" snippet 1: end

struct Wallet: Codable, Sendable, Equatable { var balance = 0 }

func typedRefusalExample(persisted: PersistentStoreCore<Wallet>, price: Int) throws(WalletError) {
// Doc "SingletonStores/Core/PersistentStoreCore.swift" snippet 3: begin
try persisted.update { (wallet: inout Wallet) throws(WalletError) in
    guard wallet.balance >= price else { throw .insufficientFunds(balance: wallet.balance) }
    wallet.balance -= price
}
// Doc "SingletonStores/Core/PersistentStoreCore.swift" snippet 3: end
}

@Suite struct KitErrorsDocCommentTests {
    @Test func aWalletPaysWhatItHoldsAndRefusesMore() throws {
        let wallet = ValueStore(stub: 5)
        try pay(3, from: wallet)
        do {
            try pay(3, from: wallet)
            Issue.record("a payment above the balance went through")
        } catch {
            guard case .insufficientFunds(let balance) = error else { Issue.record("\(error)"); return }
            #expect(balance == 2)
        }
        #expect(wallet.value == 2)
    }

    @Test func aPersistentCoreRefusesAndFailsWithTheWalletsError() throws {
        let storage = InMemoryStorage()
        let persisted = PersistentStoreCore(
            key: "wallet", default: Wallet(balance: 10), storage: storage,
            channel: NotificationChannel("KitErrorsDocCommentTests.wallet"), center: NotificationCenter())
        try typedRefusalExample(persisted: persisted, price: 4)
        #expect(persisted.state.balance == 6)
        let failure = StorageError.writeFailed(file: InMemoryStorage.location(forKey: "wallet"), reason: "disk full")
        storage.simulateWriteFailure(failure, forKey: "wallet")
        do {
            try typedRefusalExample(persisted: persisted, price: 1)
            Issue.record("a payment that was not saved did not throw")
        } catch {
            guard case .storage(let storageError) = error else { Issue.record("\(error)"); return }
            #expect(storageError == failure)
        }
        #expect(persisted.state.balance == 6)
    }
}
