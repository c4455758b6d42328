import SingletonStoresTestSupport
import Dispatch
import Foundation
import StoreObservation
import SingletonStores
import SingletonStoresLocking
import Testing

/// A core calls the observers of its own changes itself, then posts the change to its center:
/// the order of the two, the tokens' promises, and the `userInfo` table reused from post to post.
@Suite(.ownThread) struct StoreCoreObserverTests {
    @Test func observersRunInRegistrationOrderThenChannelAndClassicObservers() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        let log = Recorder<String>()
        let classic = center.addObserver(forName: NotificationChannel.counter.name, object: nil, queue: nil) { note in
            log.append("classic \(note.userInfo?["new"] as? Int ?? -1)")
        }
        let channel = NotificationChannel.counter.observe(center: center) { log.append("channel \($0.new)") }
        let first = store.core.observe { log.append("first \($0.new)") }
        let second = store.core.observe { log.append("second \($0.new)") }
        let third = store.core.observe { log.append("third \($0.new)") }
        store.increment()
        store.increment()
        let values = log.values
        #expect(values.count == 10)
        for (change, entries) in [(1, values.prefix(5)), (2, values.suffix(5))] {
            #expect(Array(entries.prefix(3)) == ["first \(change)", "second \(change)", "third \(change)"])
            #expect(Set(entries.suffix(2)) == ["classic \(change)", "channel \(change)"])
        }
        center.removeObserver(classic)
        for token in [channel, first, second, third] { token.cancel() }
    }

    /// 8 threads × 2,000 increments: a typed observer, a channel observer and a classic observer
    /// each see every change once, in commit order.
    @Test func everyKindOfObserverSeesEveryChangeInCommitOrderUnderConcurrentWriters() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        let typed = Recorder<Int>(), channel = Recorder<Int>(), classic = Recorder<Int>()
        let typedToken = store.core.observe { typed.append($0.new) }
        let channelToken = NotificationChannel.counter.observe(center: center) { channel.append($0.new) }
        let classicObserver = center.addObserver(
            forName: NotificationChannel.counter.name, object: nil, queue: nil
        ) { note in
            classic.append(note.userInfo?["new"] as? Int ?? -1)
        }
        onThreads(8) { for _ in 0..<2_000 { store.increment() } }
        typedToken.cancel()
        channelToken.cancel()
        center.removeObserver(classicObserver)
        #expect(typed.values == Array(1...16_000))
        #expect(channel.values == Array(1...16_000))
        #expect(classic.values == Array(1...16_000))
    }

    @Test func aClassicObserverThatKeepsTheNotificationKeepsItsValues() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        // Every post is on this thread, inside `increment()`.
        final class Kept: @unchecked Sendable { var notes: [Notification] = [] }
        let kept = Kept()
        let typed = store.core.observe { _ in }
        let observer = center.addObserver(forName: NotificationChannel.counter.name, object: nil, queue: nil) { note in
            kept.notes.append(note)
        }
        for _ in 0..<3 { store.increment() }
        center.removeObserver(observer)
        typed.cancel()
        let described = kept.notes.map { note -> String in
            let info = note.userInfo ?? [:]
            let change = info[NotificationChannel<StoreChange<Int>>.payloadKey] as? StoreChange<Int>
            return "\(info["old"] as? Int ?? -1)→\(info["new"] as? Int ?? -1) \(change?.description ?? "none")"
        }
        #expect(described == ["0→1 0 → 1", "1→2 1 → 2", "2→3 2 → 3"])
    }

    @Test func theCoreKeepsNoStateOfAPostedChange() {
        final class Item: Sendable, Equatable {
            static func == (lhs: Item, rhs: Item) -> Bool { lhs === rhs }
        }
        let core = StoreCore<[Item]>(
            [], channel: NotificationChannel("StoreCoreObserverTests.items"), center: NotificationCenter())
        let token = core.observe { _ in }
        weak var released: Item?
        do {
            let item = Item()
            released = item
            core.set([item])
            core.set([])
        }
        #expect(released == nil, "the last change's old value must not outlive its post")
        token.cancel()
    }

    @Test func droppingATokenOrASequenceRemovesTheObserver() {
        let center = NotificationCenter()
        let store = CounterStore(center: center)
        let received = Recorder<Int>()
        var token: ObservationToken? = store.core.observe { received.append($0.new) }
        var changes: AsyncStream<StoreChange<Int>>? = store.core.changes()
        #expect(center.storeObservationObserverCount == 2)
        store.increment()
        token = nil
        changes = nil
        store.increment()
        #expect(received.values == [1])
        #expect(center.storeObservationObserverCount == 0)
        _ = (token, changes)
    }

    @Test func aHandlerThatCancelsItsOwnTokenIsNotCalledAgain() {
        let store = CounterStore(center: NotificationCenter())
        let received = Recorder<Int>()
        let box = Locked<ObservationToken?>(nil)
        let token = store.core.observe { change in
            received.append(change.new)
            if change.new == 2 { box.withLock { $0 }?.cancel() }
        }
        box.withLock { $0 = token }
        for _ in 0..<4 { store.increment() }
        #expect(received.values == [1, 2])
        #expect(!token.isActive)
    }

    @Test func anObserverAddedByAHandlerSeesTheNextChangeOnly() {
        let store = CounterStore(center: NotificationCenter())
        let late = Recorder<Int>()
        let added = Locked<ObservationToken?>(nil)
        let token = store.core.observe { change in
            guard change.new == 1 else { return }
            let made = store.core.observe { late.append($0.new) }
            added.withLock { $0 = made }
        }
        store.increment()
        store.increment()
        #expect(late.values == [2])
        token.cancel()
        added.withLock { $0 }?.cancel()
    }

    @Test func cancelWaitsForAHandlerCallRunningOnAnotherThread() {
        let store = CounterStore(center: NotificationCenter())
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = Locked(false)
        let token = store.core.observe { _ in
            entered.signal()
            release.wait()
            finished.withLock { $0 = true }
        }
        Thread { store.increment() }.start()
        entered.wait()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { release.signal() }
        token.cancel()
        #expect(finished.withLock { $0 }, "cancel() returned while the handler was still running")
    }

    /// Posting threads hammer the store while another thread cancels: no handler call starts
    /// after `cancel()` has returned (the handler reads a flag set only once it has).
    @Test func noHandlerCallStartsAfterCancelReturnsWhileOtherThreadsWrite() {
        var late = 0
        for _ in 0..<100 {
            let store = CounterStore(center: NotificationCenter())
            let cancelled = Locked(false)
            let lateCalls = Locked(0)
            let token = store.core.observe { _ in
                if cancelled.withLock({ $0 }) { lateCalls.withLock { $0 += 1 } }
            }
            let group = DispatchGroup()
            for _ in 0..<3 {
                group.enter()
                Thread {
                    for _ in 0..<300 { store.increment() }
                    group.leave()
                }.start()
            }
            group.enter()
            Thread {
                token.cancel()
                cancelled.withLock { $0 = true }
                group.leave()
            }.start()
            group.wait()
            late += lateCalls.withLock { $0 }
        }
        #expect(late == 0, "handler calls that started after cancel() returned")
    }

    @Test func queueDeliveryKeepsCommitOrderOffTheWritingThread() {
        let store = CounterStore(center: NotificationCenter())
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let received = Recorder<Int>()
        let token = store.core.observe(on: .queue(queue)) { received.append($0.new) }
        onThreads(4) { for _ in 0..<250 { store.increment() } }
        queue.waitUntilAllOperationsAreFinished()
        #expect(received.values == Array(1...1_000))
        token.cancel()
    }
}
