import SingletonStoresTestSupport
import Foundation
import StoreObservation
import Testing

@Suite struct NotificationChannelTests {
    let center = NotificationCenter()

    @Test func observerReceivesEveryPostedValueInOrder() {
        let received = Recorder<Int>()
        let token = NotificationChannel.score.observe(center: center) { received.append($0) }
        for value in [3, 1, 4, 1, 5] { NotificationChannel.score.post(value, center: center) }
        #expect(received.values == [3, 1, 4, 1, 5])
        token.cancel()
    }

    @Test func postingOnAnotherCenterIsNotSeen() {
        let received = Recorder<Int>()
        let token = NotificationChannel.score.observe(center: center) { received.append($0) }
        NotificationChannel.score.post(1, center: NotificationCenter())
        #expect(received.values.isEmpty)
        token.cancel()
    }

    @Test func classicObserverReadsPayloadObjectAndExtraUserInfo() {
        let received = Recorder<String>()
        let observer = center.addObserver(forName: NotificationChannel<Int>.score.name, object: nil, queue: nil) { note in
            let payload = note.userInfo?[NotificationChannel<Int>.payloadKey] as? Int
            let object = note.object as? Int
            let extra = note.userInfo?["unit"] as? String
            received.append("\(payload ?? -1) \(object ?? -1) \(extra ?? "?")")
        }
        NotificationChannel.score.post(42, object: 7, userInfo: ["unit": "s"], center: center)
        center.removeObserver(observer)
        #expect(received.values == ["42 7 s"])
    }

    @Test func eachPostCarriesOnlyItsOwnUserInfoWhateverItsSize() {
        // Up to two extra entries start from a shared empty table, more from a table of their own:
        // neither may leak one post's entries into the next.
        let received = Recorder<String>()
        let observer = center.addObserver(forName: NotificationChannel<Int>.score.name, object: nil, queue: nil) { note in
            let payload = note.userInfo?[NotificationChannel<Int>.payloadKey] as? Int ?? -1
            let keys = (note.userInfo ?? [:]).keys.compactMap { $0.base as? String }
                .filter { $0 != NotificationChannel<Int>.payloadKey }.sorted()
            received.append("\(payload): \(keys.joined(separator: ","))")
        }
        NotificationChannel.score.post(1, userInfo: ["a": 1, "b": 2, "c": 3, "d": 4], center: center)
        NotificationChannel.score.post(2, userInfo: ["e": 5], center: center)
        NotificationChannel.score.post(3, center: center)
        NotificationChannel.score.post(4, userInfo: ["f": 6, "g": 7], center: center)
        center.removeObserver(observer)
        #expect(received.values == ["1: a,b,c,d", "2: e", "3: ", "4: f,g"])
    }

    @Test func typedObserverUnderstandsAClassicPostWithTheValueAsObject() {
        let received = Recorder<Int>()
        let token = NotificationChannel.score.observe(center: center) { received.append($0) }
        // Seed 004 posts the remaining seconds as the notification's object.
        center.post(name: NotificationChannel<Int>.score.name, object: 12, userInfo: nil)
        center.post(name: NotificationChannel<Int>.score.name, object: "not an Int", userInfo: nil)
        #expect(received.values == [12])
        token.cancel()
    }

    @Test func objectFilterDeliversOnlyThatSendersPosts() {
        final class Sender: Sendable {}
        let mine = Sender(), theirs = Sender()
        let received = Recorder<Int>()
        let token = NotificationChannel.score.observe(center: center, object: mine) { received.append($0) }
        NotificationChannel.score.post(1, object: mine, center: center)
        NotificationChannel.score.post(2, object: theirs, center: center)
        #expect(received.values == [1])
        token.cancel()
    }

    @Test func channelsWithDifferentNamesDoNotMix() {
        let scores = Recorder<Int>(), words = Recorder<String>()
        let a = NotificationChannel.score.observe(center: center) { scores.append($0) }
        let b = NotificationChannel.word.observe(center: center) { words.append($0) }
        NotificationChannel.score.post(1, center: center)
        NotificationChannel.word.post("one", center: center)
        #expect(scores.values == [1])
        #expect(words.values == ["one"])
        a.cancel(); b.cancel()
    }
}
