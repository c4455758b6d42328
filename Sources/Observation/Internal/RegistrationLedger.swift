import Foundation
import SingletonStoresLocking

/// Counts the observers this module has registered and not yet removed, per notification center.
///
/// NotificationCenter cannot list its observers, so the tests that prove tokens and sequences
/// clean up after themselves read this count instead. Entries for centers with no live observer
/// are dropped, so the ledger never outgrows the set of centers in use.
@usableFromInline
enum RegistrationLedger {
    private static let counts = Locked<[ObjectIdentifier: Int]>([:])

    @usableFromInline
    static func added(to center: NotificationCenter) {
        counts.withLock { $0[ObjectIdentifier(center), default: 0] += 1 }
    }

    @usableFromInline
    static func removed(from center: NotificationCenter) {
        counts.withLock { counts in
            let key = ObjectIdentifier(center)
            let remaining = (counts[key] ?? 0) - 1
            counts[key] = remaining > 0 ? remaining : nil
        }
    }

    static func count(on center: NotificationCenter) -> Int {
        counts.withLock { $0[ObjectIdentifier(center)] ?? 0 }
    }
}

extension NotificationCenter {
    /// How many observers registered through StoreObservation are still registered on this
    /// center. For the package's own tests.
    package var storeObservationObserverCount: Int {
        RegistrationLedger.count(on: self)
    }
}
