// The code of the "Errors" article, compiled and run: a refusal and a failed save both come out
// as the store's own error, and a save alone as a StorageError, typed.
import Foundation
import Testing

// Article "Errors" snippet 1: begin
import SingletonStores

struct Wallet: Codable, Sendable, Equatable { var balance = 0 }

enum WalletError: StoreFailure, Equatable {
    case insufficientFunds(balance: Int)
    case storage(StorageError)
}

func pay(_ price: Int, from wallet: ValueStore<Wallet>) throws(WalletError) {
    try wallet.update { (current: inout Wallet) throws(WalletError) in
        guard current.balance >= price else { throw .insufficientFunds(balance: current.balance) }
        current.balance -= price
    }
}

func topUp(_ amount: Int, wallet: ValueStore<Wallet>) throws(StorageError) {
    try wallet.update { $0.balance += amount }
}
// Article "Errors" snippet 1: end

// Article "Errors" snippet 2: begin
struct ReaderSettings: Codable, Sendable, Equatable { var fontSize = 14; var isLocked = false }
struct SettingsLocked: Error {}

func enlargeText(_ settings: ValueStore<ReaderSettings>) throws {
    try settings.update { settings in
        guard !settings.isLocked else { throw SettingsLocked() }
        settings.fontSize = 18
    }
}
// Article "Errors" snippet 2: end

@Suite struct ErrorsArticleTests {
    static let writeFailure = StorageError.writeFailed(file: URL(fileURLWithPath: "/wallet.json"), reason: "disk full")

    @Test func aRefusalIsTheStoresOwnErrorAndChangesNothing() throws {
        let wallet = ValueStore(stub: Wallet(balance: 5))
        try topUp(5, wallet: wallet)
        #expect(throws: WalletError.insufficientFunds(balance: 10)) { try pay(12, from: wallet) }
        try pay(4, from: wallet)
        #expect(wallet.value.balance == 6)
    }

    @Test func aFailedSaveIsTheStorageCaseOfTheStoresOwnError() {
        let storage = InMemoryStorage()
        let wallet = ValueStore(key: "wallet", default: Wallet(balance: 10), storage: storage, center: NotificationCenter())
        storage.simulateWriteFailure(Self.writeFailure, forKey: "wallet")
        do {
            try pay(4, from: wallet)
            Issue.record("the payment was not saved, yet it did not throw")
        } catch {
            // `error` is a WalletError: the typed form was chosen, and it carries the storage failure.
            #expect(error == .storage(Self.writeFailure))
        }
        #expect(wallet.value.balance == 10)
    }

    @Test func aSaveAloneThrowsAStorageErrorTyped() {
        let storage = InMemoryStorage()
        let wallet = ValueStore(key: "wallet", default: Wallet(), storage: storage, center: NotificationCenter())
        storage.simulateWriteFailure(Self.writeFailure, forKey: "wallet")
        do {
            try wallet.update { $0.balance += 1 }
            Issue.record("the change was not saved, yet it did not throw")
        } catch {
            // `error` is a StorageError: the form for a body that throws nothing is typed.
            #expect(error == Self.writeFailure)
        }
        #expect(wallet.value == Wallet())
    }

    @Test func aBodyThatThrowsAnyErrorThrowsItOrTheStorageError() throws {
        let storage = InMemoryStorage()
        let settings = ValueStore(
            key: "settings", default: ReaderSettings(isLocked: true), storage: storage, center: NotificationCenter())
        #expect(throws: SettingsLocked.self) { try enlargeText(settings) }
        try settings.update { $0.isLocked = false }
        storage.simulateWriteFailure(Self.writeFailure, forKey: "settings")
        #expect(throws: Self.writeFailure) { try enlargeText(settings) }
        #expect(settings.value.fontSize == 14, "neither the refusal nor the failed save changed it")
        storage.simulateWriteFailure(nil, forKey: "settings")
        try enlargeText(settings)
        #expect(settings.value.fontSize == 18)
    }

    @Test func aPersistentCoreThrowsTheStoresOwnErrorToo() {
        let storage = InMemoryStorage()
        let core = PersistentStoreCore(
            key: "wallet", default: Wallet(balance: 3), storage: storage,
            channel: NotificationChannel("ErrorsArticleTests.wallet"),
            center: NotificationCenter())
        #expect(throws: WalletError.insufficientFunds(balance: 3)) {
            try core.update { (current: inout Wallet) throws(WalletError) in
                guard current.balance >= 5 else { throw .insufficientFunds(balance: current.balance) }
                current.balance -= 5
            }
        }
        storage.simulateWriteFailure(Self.writeFailure, forKey: "wallet")
        do {
            try core.update { (current: inout Wallet) throws(WalletError) in current.balance -= 1 }
            Issue.record("the change was not saved, yet it did not throw")
        } catch {
            #expect(error == .storage(Self.writeFailure))
        }
        #expect(core.state.balance == 3)
    }
}
