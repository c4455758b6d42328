import Foundation
import StoreObservation
import SingletonStoresLocking

/// A fresh center whose live observer count tests can read (`storeObservationObserverCount`).
typealias CountingCenter = NotificationCenter

extension NotificationCenter {
    var observerCount: Int { storeObservationObserverCount }
}

/// A thread-safe list for values that handlers receive.
final class Received<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])
    var values: [Value] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
}

extension NotificationChannel where Payload == Int {
    static let score = NotificationChannel("StoreObservationTests.score")
}

extension NotificationChannel where Payload == String {
    static let word = NotificationChannel("StoreObservationTests.word")
}
