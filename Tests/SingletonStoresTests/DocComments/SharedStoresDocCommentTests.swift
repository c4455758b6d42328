// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Testing

// The doc-comment examples of the stores on a network storage, compiled and run against a
// storage that suspends as a network call does.

@Test func asyncStoreStorageExample() async throws {
    let storage = TestNetworkStorage(server: TestServer())
// Doc "SingletonStores/Persistence/Shared/AsyncStoreStorage.swift" snippet 1: begin
let counter = try await SharedValueStore(key: "visits", default: 0, storage: storage)
try await counter.update { $0 += 1 }     // decided under the row's lock, on every machine
print(counter.value)                      // read from memory
// Doc "SingletonStores/Persistence/Shared/AsyncStoreStorage.swift" snippet 1: end
    #expect(counter.value == 1)
}

@Test func asynchronousStorageExample() async throws {
// Doc "SingletonStores/Persistence/Shared/AsynchronousStorage.swift" snippet 1: begin
let counter = try await SharedValueStore(
    key: "visits", default: 0, storage: InMemoryStorage().asynchronous)
// Doc "SingletonStores/Persistence/Shared/AsynchronousStorage.swift" snippet 1: end
    #expect(counter.value == 0)
}

@Test func sharedValueStoreExample() async throws {
    let storage = TestNetworkStorage(server: TestServer())
// Doc "SingletonStores/Core/SharedValueStore.swift" snippet 1: begin
struct Flags: Codable, Sendable, Equatable { var newCheckout = false }

let flags = try await SharedValueStore(key: "flags", default: Flags(), storage: storage)
let checkout = flags.value.newCheckout ? "new" : "old"  // from memory, never waits
try await flags.update { $0.newCheckout = true }         // under the row's lock, everywhere
// Doc "SingletonStores/Core/SharedValueStore.swift" snippet 1: end
    #expect(checkout == "old" && flags.value.newCheckout)
}

@Test func sharedValueStoreUpdateExample() async throws {
    enum WalletError: StoreFailure {
        case insufficientFunds(balance: Int)
        case storage(StorageError)
    }
    let wallet = try await SharedValueStore(key: "wallet", default: 10, storage: TestNetworkStorage(server: TestServer()))
    let price = 4
// Doc "SingletonStores/Core/SharedValueStore.swift" snippet 2: begin
try await wallet.update { (balance: inout Int) throws(WalletError) in
    guard balance >= price else { throw .insufficientFunds(balance: balance) }
    balance -= price
}
// Doc "SingletonStores/Core/SharedValueStore.swift" snippet 2: end
    #expect(wallet.value == 6)
}

@Test func sharedCountdownStoreExample() async throws {
    let storage = TestNetworkStorage(server: TestServer())
// Doc "SingletonStores/Countdown/SharedCountdownStore.swift" snippet 1: begin
let boost = try await SharedCountdownStore(key: "boost", storage: storage)
try await boost.start(duration: .seconds(30 * 60))   // every instance shows it now
let token = boost.observe { seconds in
    print(seconds.formatted(.countdown))              // "29:59", "29:58", …
}
let shown = boost.remainingSeconds                    // from memory, never waits
// Doc "SingletonStores/Countdown/SharedCountdownStore.swift" snippet 1: end
    #expect(shown == 1_800)
    token.cancel()
}
