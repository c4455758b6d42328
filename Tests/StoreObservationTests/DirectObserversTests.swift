import SingletonStoresTestSupport
import Foundation
import StoreObservation
import Testing

/// The observers a store core calls itself: registration order through any removals, and a
/// removal that does not move the others.
@Suite struct DirectObserversTests {
    @Test func cancellingTheOldestObserverLeavesTheOthersWhereTheyAre() {
        let observers = DirectObservers<Int>(center: NotificationCenter())
        let tokens = (0..<1_000).map { _ in observers.observe(on: .postingThread) { _ in } }
        tokens[0].cancel()
        // Its slot is left empty rather than the 999 others moved down one.
        #expect(observers.slotCount == 1_000)
        // Once empty slots outnumber live ones, one compaction drops them all.
        for token in tokens[1...499] { token.cancel() }
        #expect(observers.slotCount == 1_000)
        tokens[500].cancel()
        #expect(observers.slotCount == 499)
        // Cancelling the newest drops its slot (and the empty ones before it) at once.
        tokens[999].cancel()
        tokens[998].cancel()
        #expect(observers.slotCount == 497)
        for token in tokens { token.cancel() }
        #expect(observers.slotCount == 0)
    }

    @Test func observersRunInRegistrationOrderThroughRemovalsAndCompactions() {
        let center = NotificationCenter()
        let observers = DirectObservers<Int>(center: center)
        let called = Recorder<Int>()
        var live: [Int: ObservationToken] = [:]
        var next = 0
        func add(_ count: Int) {
            for _ in 0..<count {
                let index = next
                live[index] = observers.observe(on: .postingThread) { _ in called.append(index) }
                next += 1
            }
        }
        var random = SplitMix(seed: 32)
        add(300)
        for round in 0..<40 {
            // Cancel a random third of the live observers, in random order, then add a few.
            for index in live.keys.shuffled(using: &random).prefix(live.count / 3) {
                live.removeValue(forKey: index)?.cancel()
            }
            add(Int.random(in: 0...40, using: &random))
            let before = called.count
            observers.post(round)
            #expect(Array(called.values.dropFirst(before)) == live.keys.sorted(), "round \(round)")
            #expect(observers.slotCount <= 2 * live.count + 1, "empty slots never outnumber live ones")
        }
        #expect(center.storeObservationObserverCount == live.count)
        for token in live.values { token.cancel() }
        #expect(center.storeObservationObserverCount == 0)
    }
}
