import Foundation
import StoreObservation
import SingletonStoresLocking

/// A fresh center whose live observer count tests can read (`storeObservationObserverCount`).
typealias CountingCenter = NotificationCenter

extension NotificationCenter {
    var observerCount: Int { storeObservationObserverCount }
}

extension NotificationChannel where Payload == Int {
    static let score = NotificationChannel("StoreObservationTests.score")
}

extension NotificationChannel where Payload == String {
    static let word = NotificationChannel("StoreObservationTests.word")
}
