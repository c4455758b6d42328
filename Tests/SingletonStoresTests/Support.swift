import Foundation
import StoreObservation
import SingletonStores
import SingletonStoresLocking

// A store an app would define, declared here in the test target: the kit knows
// nothing about it.

/// The contract app code depends on.
protocol CounterContract: Sendable {
    var count: Int { get }
    func increment()
}

extension NotificationChannel where Payload == StoreChange<Int> {
    static let counter = NotificationChannel("SingletonStoresTests.counter")
    static let other = NotificationChannel("SingletonStoresTests.other")
}

/// The production store: one StoreCore and two intent methods.
final class CounterStore: CounterContract {
    static let shared = CounterStore()
    let core: StoreCore<Int>

    init(center: NotificationCenter = .default, channel: NotificationChannel<StoreChange<Int>> = .counter) {
        core = StoreCore(0, channel: channel, center: center)
    }
    var count: Int { core.state }
    func increment() { core.update { $0 += 1 } }
    func add(_ amount: Int) { core.update { $0 += amount } }
}

/// The stub tests and previews use.
final class CounterStub: CounterContract {
    private let value: Locked<Int>
    init(count: Int) { value = Locked(count) }
    var count: Int { value.withLock { $0 } }
    func increment() { value.withLock { $0 += 1 } }
}

enum CounterKey: ProductionStoreKey {
    static var productionValue: any CounterContract { CounterStore.shared }
    static var stubValue: any CounterContract { CounterStub(count: -1) }
}

/// A key with a stub but no production value: reading it unset must be reported.
protocol WeatherContract: Sendable { var forecast: String { get } }
struct WeatherStub: WeatherContract { var forecast: String }
enum WeatherKey: StoreKey {
    static var stubValue: any WeatherContract { WeatherStub(forecast: "stub sunshine") }
}

extension StoreValues {
    var counter: any CounterContract {
        get { self[CounterKey.self] }
        set { self[CounterKey.self] = newValue }
    }
    var weather: any WeatherContract {
        get { self[WeatherKey.self] }
        set { self[WeatherKey.self] = newValue }
    }
}
