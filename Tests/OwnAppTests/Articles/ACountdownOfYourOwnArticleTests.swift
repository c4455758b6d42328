// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the article "A countdown of your
// own", laid out as the article shows it, so the formatter leaves this file alone.)
// The article's code, compiled and run from a package that depends on SingletonStores, Timers
// and SingletonStoresTesting only. The production countdown of snippet 1 is never read: every
// test here reads stubs or stores of its own.
import Foundation
import SingletonStores
import SingletonStoresTesting
import Synchronization
import Testing
import Timers

// Article "ACountdownOfYourOwn" snippet 1: begin
enum OrderArrivalKey: ProductionStoreKey {
    static let productionValue = CountdownStore(key: "order-arrival")  // <data folder>/order-arrival.json
    static var stubValue: CountdownStore { CountdownStore(stub: .zero) }  // idle, in memory
}

extension StoreValues {
    var orderArrival: CountdownStore {
        get { self[OrderArrivalKey.self] }
        set { self[OrderArrivalKey.self] = newValue }
    }
}
// Article "ACountdownOfYourOwn" snippet 1: end

// Article "ACountdownOfYourOwn" snippet 2: begin
func orderPlaced() throws {
    try StoreValues.current.orderArrival.start(duration: .seconds(20 * 60))
}
// Article "ACountdownOfYourOwn" snippet 2: end

// Article "ACountdownOfYourOwn" snippet 3: begin
/// A label a screen draws into (a `UILabel` in an app).
final class Label: Sendable {
    private let shown = Mutex("")
    var text: String {
        get { shown.withLock { $0 } }
        set { shown.withLock { $0 = newValue } }
    }
}

/// The checkout screen and the order screen both show when the order arrives.
final class ArrivalScreen: Sendable {
    let label: Label
    private let token: ObservationToken

    init(arrival: CountdownStore = StoreValues.current.orderArrival) {
        let label = Label()
        label.text = arrival.remainingSeconds.formatted(.countdown)
        token = arrival.observe { seconds in label.text = seconds.formatted(.countdown) }
        self.label = label
    }
}
// Article "ACountdownOfYourOwn" snippet 3: end

// Article "ACountdownOfYourOwn" snippet 4: begin
@Test func bothScreensShowTheSameTime() async {
    let clock = ManualClock()
    let arrival = CountdownStore(stub: .seconds(20 * 60), clock: clock)
    let checkout = ArrivalScreen(arrival: arrival)
    let order = ArrivalScreen(arrival: arrival)
    await clock.advance(by: .seconds(90))
    #expect(checkout.label.text == "18:30")
    #expect(order.label.text == checkout.label.text)
}
// Article "ACountdownOfYourOwn" snippet 4: end

// Article "ACountdownOfYourOwn" snippet 5: begin
@Test(.stubbedStores) func placingAnOrderStartsTheCountdown() throws {
    try orderPlaced()
    #expect(StoreValues.current.orderArrival.remainingSeconds == 20 * 60)
    #expect(ArrivalScreen().label.text == "20:00")
}
// Article "ACountdownOfYourOwn" snippet 5: end

// Article "ACountdownOfYourOwn" snippet 6: begin
@Test func theCountdownSurvivesARelaunch() async throws {
    let clock = ManualClock()
    let wall = clock.wallClock(startingAt: Date(timeIntervalSince1970: 1_700_000_000))
    let storage = InMemoryStorage()
    let before = CountdownStore(key: "order-arrival", clock: clock, wallClock: wall, storage: storage, center: NotificationCenter())
    try before.start(duration: .seconds(90))
    await clock.advance(by: .seconds(30))

    let after = CountdownStore(key: "order-arrival", clock: clock, wallClock: wall, storage: storage, center: NotificationCenter())
    #expect(after.remainingSeconds == 60)
}
// Article "ACountdownOfYourOwn" snippet 6: end
