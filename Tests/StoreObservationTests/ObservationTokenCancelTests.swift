import SingletonStoresTestSupport
import Foundation
import StoreObservation
import Synchronization
import Testing

/// Once `cancel()` has returned, the handler is never called again, even while other threads
/// keep posting.
///
/// Each round has posting threads hammer the channel while one more thread cancels. The handler
/// first reads a flag that the cancelling thread sets only after `cancel()` has returned, so a
/// handler call that sees the flag set started after `cancel()` returned: a broken promise,
/// whatever the timing. The pass/fail verdict depends on no clock.
@Suite(.ownThread) struct ObservationTokenCancelTests {
    static let rounds = 150
    static let posters = 3
    static let postsPerPoster = 400

    @Test(arguments: [Mode.postingThread, .queue])
    func noHandlerCallStartsAfterCancelReturnsWhileOtherThreadsPost(_ mode: Mode) {
        var late = 0
        var delivered = 0
        for _ in 0..<Self.rounds {
            let round = CancelRound(mode: mode)
            round.run(posters: Self.posters, postsPerPoster: Self.postsPerPoster)
            late += round.lateCalls
            delivered += round.calls
        }
        #expect(late == 0, "handler calls that started after cancel() returned")
        #expect(delivered > 0, "the handler ran before the cancel")
    }

    @Test func cancelFromInsideTheHandlerNeverDeadlocksWhileOtherThreadsDoTheSame() {
        // Several threads may reach value 50 together, each cancelling from its own handler call:
        // none may wait for another (they would wait for each other forever).
        for _ in 0..<20 {
            let center = NotificationCenter()
            let received = Counter()
            let box = TokenBox()
            let token = NotificationChannel.score.observe(center: center) { value in
                received.increment()
                if value == 50 { box.token?.cancel() }
            }
            box.token = token
            onThreads(4) { _ in
                for value in 0..<200 { NotificationChannel.score.post(value, center: center) }
            }
            let before = received.value
            NotificationChannel.score.post(1, center: center)
            #expect(received.value == before)
            #expect(!token.isActive)
            #expect(center.observerCount == 0)
        }
    }

    @Test func aPostMadeByTheHandlerAfterItCancelledIsNotDelivered() {
        let center = NotificationCenter()
        let received = Recorder<Int>()
        let box = TokenBox()
        box.token = NotificationChannel.score.observe(center: center) { value in
            received.append(value)
            guard value == 1 else { return }
            box.token?.cancel()
            NotificationChannel.score.post(2, center: center)  // on this very thread, nested
        }
        NotificationChannel.score.post(1, center: center)
        #expect(received.values == [1])
    }

    @MainActor
    @Test func aMainActorValueStillQueuedWhenTheTokenIsCancelledIsDropped() async {
        let center = NotificationCenter()
        let received = Recorder<Int>()
        let token = NotificationChannel.score.observeOnMainActor(center: center) { received.append($0) }
        // Posted from another thread: the value waits in the main queue for this test to yield.
        onThreads(1) { _ in NotificationChannel.score.post(1, center: center) }
        token.cancel()
        // The main queue is first in, first out: once this block has run, the value's has too.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
        #expect(received.values.isEmpty)
    }

    @Test func everyConcurrentCancelWaitsForTheCallsInProgress() {
        // Two threads cancel at once: the one that does not remove the observer must not return
        // before the calls in progress have finished either.
        var late = 0
        for _ in 0..<Self.rounds {
            let round = CancelRound(mode: .postingThread, cancellers: 2)
            round.run(posters: 2, postsPerPoster: 200)
            late += round.lateCalls
        }
        #expect(late == 0)
    }
}

/// How a round's observer is delivered to.
enum Mode: Sendable, CustomTestStringConvertible {
    case postingThread
    case queue

    var testDescription: String {
        switch self {
        case .postingThread: "posting thread"
        case .queue: "concurrent operation queue"
        }
    }
}

/// One race: posters post, cancellers cancel once the first value arrived, and the handler
/// counts the calls that start after a `cancel()` returned.
private final class CancelRound: Sendable {
    let center = NotificationCenter()
    let queue: OperationQueue?
    let token: ObservationToken
    /// Set by a canceller once its `cancel()` has returned.
    private let cancelled = Flag()
    private let late = Counter()
    private let delivered = Counter()
    private let cancellers: Int

    init(mode: Mode, cancellers: Int = 1) {
        self.cancellers = cancellers
        let cancelled = self.cancelled
        let late = self.late
        let delivered = self.delivered
        let delivery: ObservationDelivery
        switch mode {
        case .postingThread:
            queue = nil
            delivery = .postingThread
        case .queue:
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 4
            self.queue = queue
            delivery = .queue(queue)
        }
        token = NotificationChannel.score.observe(center: center, on: delivery) { _ in
            // Read first: a call that sees the flag began after a cancel() had returned.
            if cancelled.isSet { late.increment() }
            delivered.increment()
        }
    }

    var lateCalls: Int { late.value }
    var calls: Int { delivered.value }

    func run(posters: Int, postsPerPoster: Int) {
        let center = center
        let token = token
        let cancelled = cancelled
        let delivered = delivered
        onThreads(posters + cancellers) { index in
            if index < posters {
                for value in 0..<postsPerPoster { NotificationChannel.score.post(value, center: center) }
            } else {
                // Cancel in the thick of it: once a call has been delivered (or after a bounded
                // spin, if none ever is), not at a fixed time.
                var spins = 0
                while delivered.value == 0 && spins < 1_000_000 { spins += 1 }
                token.cancel()
                cancelled.set()
            }
        }
        queue?.waitUntilAllOperationsAreFinished()
    }
}

private final class Flag: Sendable {
    private let storage = Atomic<Bool>(false)
    var isSet: Bool { storage.load(ordering: .acquiring) }
    func set() { storage.store(true, ordering: .releasing) }
}

private final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    var value: Int { storage.load(ordering: .relaxed) }
    func increment() { storage.add(1, ordering: .relaxed) }
}

private final class TokenBox: @unchecked Sendable {
    // Written once before any post; read by the handler afterwards.
    var token: ObservationToken?
}

/// Runs `body(0)`, `body(1)`… each on a thread of its own, all at once, and waits for them.
///
/// (`DispatchQueue.concurrentPerform` would run no more iterations at once than there are
/// processors, so on a small machine the canceller could run only after the posters.)
private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

/// From outside: two handlers, each cancelling the other's token while both run, deadlocked in
/// `cancel()` (3 runs of 3).
@Suite(.ownThread) struct ObservationTokensCancellingEachOtherTests {
    @Test func twoHandlersCancellingEachOthersTokensAtOnceNeverHang() throws {
        for _ in 0..<50 {
            let center = NotificationCenter()
            let first = TokenBox()
            let second = TokenBox()
            // Both handlers start before either cancels: each waits at the barrier for the other.
            let bothRunning = DispatchGroup()
            bothRunning.enter()
            bothRunning.enter()
            first.token = NotificationChannel.score.observe(center: center) { value in
                guard value == 1 else { return }
                bothRunning.leave()
                bothRunning.wait()
                second.token?.cancel()
            }
            second.token = NotificationChannel.score.observe(center: center) { value in
                guard value == 2 else { return }
                bothRunning.leave()
                bothRunning.wait()
                first.token?.cancel()
            }
            let finished = DispatchGroup()
            for value in [1, 2] {
                finished.enter()
                Thread {
                    NotificationChannel.score.post(value, center: center)
                    finished.leave()
                }.start()
            }
            // Bounded by real time only as a guard against a hang; the verdict is that both returned.
            #expect(finished.wait(timeout: .now() + 30) == .success, "the two cancels waited for each other")
            #expect(first.token?.isActive == false)
            #expect(second.token?.isActive == false)
        }
    }
}
