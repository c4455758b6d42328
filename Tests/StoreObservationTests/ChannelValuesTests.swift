import Foundation
import StoreObservation
import Testing

@Suite struct ChannelValuesTests {
    @Test func sequenceDeliversPostedValuesUnbuffered() async {
        let center = NotificationCenter()
        let values = NotificationChannel.score.values(center: center, buffering: .unbounded)
        for value in 1...5 { NotificationChannel.score.post(value, center: center) }
        var seen: [Int] = []
        for await value in values {
            seen.append(value)
            if seen.count == 5 { break }
        }
        #expect(seen == [1, 2, 3, 4, 5])
    }

    @Test func newestBufferingKeepsOnlyTheLatestValueForASlowConsumer() async {
        let center = NotificationCenter()
        let values = NotificationChannel.score.values(center: center)  // default: .newest(1)
        for value in 1...5 { NotificationChannel.score.post(value, center: center) }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 5)
    }

    @Test func oldestBufferingKeepsTheFirstValues() async {
        let center = NotificationCenter()
        let values = NotificationChannel.score.values(center: center, buffering: .oldest(2))
        for value in 1...5 { NotificationChannel.score.post(value, center: center) }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
    }

    @Test func cancellingTheConsumingTaskEndsTheSequenceAndRemovesTheObserver() async {
        let center = CountingCenter()
        let values = NotificationChannel.score.values(center: center, buffering: .unbounded)
        #expect(center.observerCount == 1)
        let firstValueSeen = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var seen: [Int] = []
            for await value in values {
                seen.append(value)
                firstValueSeen.continuation.yield()
            }
            return seen  // reached only when the sequence ends
        }
        NotificationChannel.score.post(1, center: center)
        var signals = firstValueSeen.stream.makeAsyncIterator()
        await signals.next()
        consumer.cancel()
        #expect(await consumer.value == [1])
        #expect(center.observerCount == 0)
    }

    @Test func droppingAnUnusedSequenceRemovesTheObserver() {
        let center = CountingCenter()
        do {
            let values = NotificationChannel.score.values(center: center)
            #expect(center.observerCount == 1)
            _ = values
        }
        #expect(center.observerCount == 0)
    }
}
