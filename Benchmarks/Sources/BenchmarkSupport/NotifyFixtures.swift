import Foundation
#if BENCHMARK_PEERS
import OpenCombine
#endif
import StoreObservation
import SingletonStores

/// One `update` of a `StoreCore` store that has `observers` observers registered with
/// `core.observe` (handlers run on the posting thread and read `change.new`).
public final class OursNotify {
    public let store = BenchStore(center: NotificationCenter())
    private var tokens: [ObservationToken] = []

    public init(observers: Int) {
        tokens.reserveCapacity(observers)
        for _ in 0..<observers {
            tokens.append(store.core.observe { change in consume(change.new) })
        }
    }

    @inline(__always)
    public func mutate() { store.increment() }

    deinit { for token in tokens { token.cancel() } }
}

/// ``OursNotify`` with one observer and a ``StoreChangeLog`` started on the store's center: the
/// cost of the change log when it is on. (Off, there is no log observer at all: ``OursNotify``.)
public final class LoggedNotify {
    private let notify = OursNotify(observers: 1)
    private let log: ObservationToken

    public init() {
        log = StoreChangeLog.start(center: notify.store.core.center) { entry in consume(entry.new.count) }
    }

    @inline(__always)
    public func mutate() { notify.mutate() }

    deinit { log.cancel() }
}

/// The limit: `NotificationCenter.post(name:object:userInfo:)` of the old and new value to
/// `observers` block observers added with `addObserver(forName:object:queue:using:)` that each
/// read `userInfo["new"]`. No lock, no typed payload.
public final class RawNotify {
    public static let name = Notification.Name("RawNotify.changed")
    public let center = NotificationCenter()
    private var observers: [any NSObjectProtocol] = []
    private var value = 0

    public init(observers: Int) {
        self.observers.reserveCapacity(observers)
        for _ in 0..<observers {
            self.observers.append(
                center.addObserver(forName: Self.name, object: nil, queue: nil) { note in
                    consume(note.userInfo?["new"] as? Int ?? -1)
                })
        }
    }

    @inline(__always)
    public func mutate() {
        let old = value
        value += 1
        center.post(name: Self.name, object: nil, userInfo: ["old": old, "new": value])
    }

    deinit { for observer in observers { center.removeObserver(observer) } }
}

#if BENCHMARK_PEERS
/// OpenCombine: `CurrentValueSubject.send` to `observers` `sink` subscribers.
public final class CombineNotify {
    public let subject = CurrentValueSubject<Int, Never>(0)
    private var cancellables: [AnyCancellable] = []

    public init(observers: Int) {
        cancellables.reserveCapacity(observers)
        for _ in 0..<observers {
            cancellables.append(subject.sink { consume($0) })
        }
    }

    @inline(__always)
    public func mutate() { subject.send(subject.value + 1) }
}
#endif

/// Adds `count` observers and removes them again, for each library.
public enum ObserverChurn {
    /// `core.observe` `count` times, then `cancel()` every token.
    public static func ours(_ store: BenchStore, count: Int) {
        var tokens: [ObservationToken] = []
        tokens.reserveCapacity(count)
        for _ in 0..<count { tokens.append(store.core.observe { consume($0.new) }) }
        for token in tokens { token.cancel() }
    }

    /// `addObserver(forName:object:queue:using:)` `count` times, then `removeObserver` each.
    public static func raw(_ center: NotificationCenter, count: Int) {
        var observers: [any NSObjectProtocol] = []
        observers.reserveCapacity(count)
        for _ in 0..<count {
            observers.append(
                center.addObserver(forName: RawNotify.name, object: nil, queue: nil) { note in
                    consume(note.userInfo?["new"] as? Int ?? -1)
                })
        }
        for observer in observers { center.removeObserver(observer) }
    }

    #if BENCHMARK_PEERS
    /// `sink` `count` times, then `cancel()` each subscription.
    public static func combine(_ subject: CurrentValueSubject<Int, Never>, count: Int) {
        var cancellables: [AnyCancellable] = []
        cancellables.reserveCapacity(count)
        for _ in 0..<count { cancellables.append(subject.sink { consume($0) }) }
        for cancellable in cancellables { cancellable.cancel() }
    }
    #endif
}
