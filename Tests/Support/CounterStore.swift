import Foundation
import StoreObservation
import SingletonStores
import SingletonStoresLocking

// A store an app would define, declared in the test support: the kit knows nothing about it.
// The kit's tests and the testing library's tests share it.

/// The contract app code depends on.
package protocol CounterContract: Sendable {
    var count: Int { get }
    func increment()
}

extension NotificationChannel where Payload == StoreChange<Int> {
    package static let counter = NotificationChannel("SingletonStoresTests.counter")
    package static let other = NotificationChannel("SingletonStoresTests.other")
}

/// The production store: one StoreCore and two intent methods.
package final class CounterStore: CounterContract {
    package static let shared = CounterStore()
    package let core: StoreCore<Int>

    package init(center: NotificationCenter = .default, channel: NotificationChannel<StoreChange<Int>> = .counter) {
        core = StoreCore(0, channel: channel, center: center)
    }
    package var count: Int { core.state }
    package func increment() { core.update { $0 += 1 } }
    package func add(_ amount: Int) { core.update { $0 += amount } }
}

/// The stub tests and previews use.
package final class CounterStub: CounterContract {
    private let value: Locked<Int>
    package init(count: Int) { value = Locked(count) }
    package var count: Int { value.withLock { $0 } }
    package func increment() { value.withLock { $0 += 1 } }
}

package enum CounterKey: ProductionStoreKey {
    package static var productionValue: any CounterContract { CounterStore.shared }
    package static var stubValue: any CounterContract { CounterStub(count: -1) }
}

/// A key with a stub but no production value: reading it unset must be reported.
package protocol WeatherContract: Sendable { var forecast: String { get } }
package struct WeatherStub: WeatherContract {
    package var forecast: String
    package init(forecast: String) { self.forecast = forecast }
}
package enum WeatherKey: StoreKey {
    package static var stubValue: any WeatherContract { WeatherStub(forecast: "stub sunshine") }
}

extension StoreValues {
    package var counter: any CounterContract {
        get { self[CounterKey.self] }
        set { self[CounterKey.self] = newValue }
    }
    package var weather: any WeatherContract {
        get { self[WeatherKey.self] }
        set { self[WeatherKey.self] = newValue }
    }
}
