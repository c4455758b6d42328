// swift-format-ignore-file
// The examples of `StoreWritePolicy`'s doc comments and of the article "Persistence and
// recovery" ("Coalesced writes"), compiled and, where they touch no real data folder, run.
import Foundation
import SingletonStores
import Testing
import Timers

@Suite struct WritePolicyDocCommentTests {
    @Test func aDragIsInMemoryAtOnceAndOnDiskAfterAFlush() throws {
        let storage = InMemoryStorage()
        // Doc "SingletonStores/Persistence/StoreWritePolicy.swift" snippet 1: begin
let volume = ValueStore(
    key: "volume", default: 0.5, storage: storage,
    writePolicy: .coalescing(within: .milliseconds(500)))
for step in 1...120 { try volume.set(Double(step) / 120) }  // a drag: memory and observers at once
try volume.flush()  // on disk now, rather than within 500 ms
        // Doc "SingletonStores/Persistence/StoreWritePolicy.swift" snippet 1: end
        #expect(volume.value == 1)
        #expect(storage.value(Double.self, forKey: "volume") == 1)
    }

    @Test func aManualClockMovesTheWindow() async throws {
        let storage = InMemoryStorage()
        // Doc "SingletonStores/Persistence/StoreWritePolicy.swift" snippet 2: begin
let clock = ManualClock()
let volume = ValueStore(
    key: "volume", default: 0.5, storage: storage,
    writePolicy: .coalescing(within: .seconds(1), clock: clock))
try volume.set(0.8)
#expect(storage.value(Double.self, forKey: "volume") == nil)  // not on disk yet
await clock.advance(by: .seconds(1))
#expect(storage.value(Double.self, forKey: "volume") == 0.8)
        // Doc "SingletonStores/Persistence/StoreWritePolicy.swift" snippet 2: end
    }

    /// Compiled only: the article's store lives in the app's data folder.
    func articleExamples() {
        // Article "PersistenceAndRecovery" snippet 9: begin
let volume = ValueStore(
    key: "volume", default: 0.5,
    writePolicy: .coalescing(within: .milliseconds(500)))
        // Article "PersistenceAndRecovery" snippet 9: end
        // Article "PersistenceAndRecovery" snippet 10: begin
func sceneDidEnterBackground() {
    try? volume.flush()  // the system may end a suspended app: the last value is on disk now
}
        // Article "PersistenceAndRecovery" snippet 10: end
        _ = sceneDidEnterBackground
    }
}
