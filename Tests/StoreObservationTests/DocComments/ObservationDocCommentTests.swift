// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of StoreObservation's doc comments, verbatim between the markers, inside
// functions that give them what they assume, so that they compile and run, each on a center of
// its own. QuickStartTests/DocCommentSnippetTests checks that the comments and this file agree.
import Foundation
import StoreObservation
import SingletonStoresLocking
import SingletonStoresTestSupport
import Testing

extension Notification.Name {
    static let boostTimeNotification = Notification.Name("DocComments.boostTime")
}

func render(_ seconds: Int) {}

// Doc "Observation/NotificationChannel.swift" snippet 1: begin
extension NotificationChannel where Payload == Int {
    static let boostTime = NotificationChannel(.boostTimeNotification)
}
// Doc "Observation/NotificationChannel.swift" snippet 1: end

func channelExample(center: NotificationCenter) -> ObservationToken {
// Doc "Observation/NotificationChannel.swift" snippet 2: begin
let token = NotificationChannel.boostTime.observe(center: center) { seconds in
    print("\(seconds) s left")
}
NotificationChannel.boostTime.post(42, center: center)  // the observer sees 42
// Doc "Observation/NotificationChannel.swift" snippet 2: end
    return token
}

func observeExample(channel: NotificationChannel<Int>, center: NotificationCenter) -> ObservationToken {
// Doc "Observation/NotificationChannel+Observe.swift" snippet 1: begin
let token = channel.observe(center: center) { value in print(value) }
// Doc "Observation/NotificationChannel+Observe.swift" snippet 1: end
    return token
}

// Doc "Observation/NotificationChannel+Observe.swift" snippet 2: begin
@MainActor final class TimerLabel {
    var text = ""
    var token: ObservationToken?
    func bind() {
        token = NotificationChannel.boostTime.observeOnMainActor { [weak self] seconds in
            self?.text = "\(seconds)"
        }
    }
}
// Doc "Observation/NotificationChannel+Observe.swift" snippet 2: end

func valuesExample() {
// Doc "Observation/NotificationChannel+Values.swift" snippet 1: begin
let task = Task {
    for await seconds in NotificationChannel.boostTime.values() {
        render(seconds)
    }
}
task.cancel()   // the loop ends and the observer is gone
// Doc "Observation/NotificationChannel+Values.swift" snippet 1: end
}

func deliveryExample(channel: NotificationChannel<Int>, backgroundQueue: OperationQueue) -> [ObservationToken] {
// Doc "Observation/ObservationDelivery.swift" snippet 1: begin
let now = channel.observe(on: .postingThread) { value in print(value) }  // synchronously, inside post
let later = channel.observe(on: .queue(backgroundQueue)) { value in print(value) }  // later, in order
// Doc "Observation/ObservationDelivery.swift" snippet 1: end
    return [now, later]
}

// Doc "Observation/ObservationToken.swift" snippet 1: begin
@MainActor final class BoostPopup {
    private(set) var text = ""
    private var tokens: [ObservationToken] = []

    init(center: NotificationCenter = .default) {
        tokens.append(NotificationChannel.boostTime.observeOnMainActor(center: center) { [weak self] seconds in
            self?.text = "\(seconds) s left"
        })
    }
    // No deinit needed: dropping `tokens` removes the observers.
}
// Doc "Observation/ObservationToken.swift" snippet 1: end

@Suite struct ObservationDocCommentTests {
    @Test func theChannelExamplesObserveWhatIsPosted() {
        let center = NotificationCenter()
        let token = channelExample(center: center)
        token.cancel()
        let seen = Locked<[Int]>([])
        let other = NotificationChannel<Int>("DocComments.other")
        let printing = observeExample(channel: other, center: center)
        let recording = other.observe(center: center) { value in seen.withLock { $0.append(value) } }
        other.post(7, center: center)
        #expect(seen.withLock { $0 } == [7])
        printing.cancel()
        recording.cancel()
        valuesExample()
    }

    @Test func theDeliveriesRunTheirHandlers() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let tokens = deliveryExample(channel: NotificationChannel<Int>("DocComments.delivery"), backgroundQueue: queue)
        #expect(tokens.count == 2)
        tokens.forEach { $0.cancel() }
    }

    @MainActor @Test func thePopupAndTheLabelFollowTheBoostOnTheMainActor() async {
        let center = NotificationCenter()
        let popup = BoostPopup(center: center)
        NotificationChannel.boostTime.post(42, center: center)
        #expect(await waitUntil { popup.text == "42 s left" })
        let label = TimerLabel()
        label.bind()
        label.token?.cancel()
    }
}
