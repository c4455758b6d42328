import SingletonStoresTestSupport
import Foundation
import StoreObservation
import Testing

@Suite struct ObservationTokenTests {
    @Test func cancelledObserverReceivesNothing() {
        let center = CountingCenter()
        let received = Recorder<Int>()
        let token = NotificationChannel.score.observe(center: center) { received.append($0) }
        NotificationChannel.score.post(1, center: center)
        token.cancel()
        token.cancel()  // a second cancel is harmless
        NotificationChannel.score.post(2, center: center)
        #expect(received.values == [1])
        #expect(!token.isActive)
        #expect(center.observerCount == 0)
    }

    @Test func deinitialisedTokenRemovesItsObserver() {
        let center = CountingCenter()
        let received = Recorder<Int>()
        do {
            let token = NotificationChannel.score.observe(center: center) { received.append($0) }
            NotificationChannel.score.post(1, center: center)
            #expect(token.isActive)
        }
        NotificationChannel.score.post(2, center: center)
        #expect(received.values == [1])
        #expect(center.observerCount == 0)
    }

    @Test func tenThousandObserversAddedAndDroppedLeaveNoneRegistered() {
        final class Sentinel: Sendable {}
        let center = CountingCenter()
        let received = Recorder<Int>()
        var weakSentinels: [WeakBox] = []
        var tokens: [ObservationToken] = []
        for _ in 0..<10_000 {
            let sentinel = Sentinel()
            weakSentinels.append(WeakBox(sentinel))
            NotificationChannel.score.observe(center: center) { value in
                withExtendedLifetime(sentinel) { received.append(value) }
            }.store(in: &tokens)
        }
        NotificationChannel.score.post(1, center: center)
        #expect(received.count == 10_000)
        #expect(center.observerCount == 10_000)

        tokens.removeAll()

        NotificationChannel.score.post(2, center: center)
        #expect(received.count == 10_000, "no dropped observer may run")
        #expect(center.observerCount == 0)
        #expect(weakSentinels.allSatisfy { $0.object == nil }, "handlers and their captures are released")
    }

    @Test func onCancelRunsExactlyOnce() {
        let runs = Recorder<Int>()
        let token = ObservationToken { runs.append(1) }
        token.cancel()
        token.cancel()
        #expect(runs.count == 1)
    }
}

private struct WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
