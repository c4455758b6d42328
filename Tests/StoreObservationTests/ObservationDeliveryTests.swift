import SingletonStoresTestSupport
import Foundation
import StoreObservation
import Testing

@Suite struct ObservationDeliveryTests {
    let center = NotificationCenter()

    @Test func postingThreadDeliveryRunsBeforePostReturns() {
        let received = Recorder<Int>()
        let token = NotificationChannel.score.observe(center: center, on: .postingThread) {
            received.append($0)
        }
        NotificationChannel.score.post(1, center: center)
        #expect(received.values == [1])
        token.cancel()
    }

    @Test func serialQueueDeliveryKeepsPostingOrderOffThePostingThread() async {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let received = Recorder<Int>()
        let posterThread = Recorder<Bool>()
        let token = NotificationChannel.score.observe(center: center, on: .queue(queue)) { value in
            received.append(value)
            posterThread.append(OperationQueue.current == queue)
        }
        for value in 0..<100 { NotificationChannel.score.post(value, center: center) }
        // Waits for the queue without blocking a thread of the cooperative pool.
        await withCheckedContinuation { continuation in queue.addBarrierBlock { continuation.resume() } }
        #expect(received.values == Array(0..<100))
        #expect(posterThread.values.allSatisfy { $0 })
        token.cancel()
    }

    @MainActor
    @Test func mainActorDeliveryFromABackgroundThreadRunsOnTheMainQueue() async {
        let center = self.center
        let mainQueueMarker = DispatchSpecificKey<Bool>()  // this test's own key
        DispatchQueue.main.setSpecific(key: mainQueueMarker, value: true)
        var token: ObservationToken?
        let onMain = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            token = NotificationChannel.score.observeOnMainActor(center: center) { _ in
                // On Linux the main queue may be serviced by a thread other than the process's
                // first one; what matters is that the main actor's queue runs the handler.
                continuation.resume(returning: DispatchQueue.getSpecific(key: mainQueueMarker) == true)
            }
            Thread { NotificationChannel.score.post(1, center: center) }.start()
        }
        #expect(onMain)
        token?.cancel()
        DispatchQueue.main.setSpecific(key: mainQueueMarker, value: nil)
    }
}
