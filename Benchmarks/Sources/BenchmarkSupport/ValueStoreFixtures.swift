import Foundation
import SingletonStores
import StoreObservation

/// The README's front door, measured as an app uses it: a `ValueStore` of a small value, on a
/// `FileStorage` in a temporary folder or as a stub (`ValueStore(stub:)`).
public final class ValueStoreFixture {
    /// The value the benchmarks read and change.
    public struct Counter: Codable, Sendable, Equatable {
        public var count = 0
    }

    public let store: ValueStore<Counter>
    private let folder: URL?
    private var tokens: [ObservationToken] = []

    /// A store on a `FileStorage` in a new temporary folder (`onDisk`), or a stub; with
    /// `observers` observers that read `change.new`.
    public init(onDisk: Bool, observers: Int = 0) {
        let center = NotificationCenter()
        if onDisk {
            let folder = FileManager.default.temporaryDirectory.appending(path: "bench-valuestore-\(UUID().uuidString)")
            self.folder = folder
            store = ValueStore(
                key: "counter", default: Counter(), storage: FileStorage(folder: folder), center: center, watching: .off)
        } else {
            folder = nil
            store = ValueStore(stub: Counter(), center: center)
        }
        for _ in 0..<observers { tokens.append(store.observe { change in consume(change.new.count) }) }
    }

    @inline(__always)
    public func read() -> Int { store.value.count }

    public func mutate() {
        _ = try? store.update { $0.count &+= 1 }
    }

    deinit {
        for token in tokens { token.cancel() }
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}

/// The registry key of the `ValueStore` the benchmarks install in an override scope. Its
/// production value is a stub too, so that no benchmark touches the app's data folder.
public enum BenchValueStoreKey: ProductionStoreKey {
    public static let productionValue = ValueStore(stub: ValueStoreFixture.Counter())
    public static var stubValue: ValueStore<ValueStoreFixture.Counter> { ValueStore(stub: ValueStoreFixture.Counter()) }
}
