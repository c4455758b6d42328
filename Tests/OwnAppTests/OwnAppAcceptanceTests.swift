// An app of its own — a food-ordering client — written against the kit as a new user would:
// this target depends on SingletonStores, Timers and SingletonStoresTesting only, never on the
// built-in Stores, so nothing here can lean on the built-in app's types.
import Foundation
import SingletonStores
import SingletonStoresTesting
import Synchronization
import Testing
import Timers

private struct Cart: Codable, Sendable, Equatable { var items: [String] = [] }
private struct AppSettings: Codable, Sendable, Equatable { var theme = "light" }

private enum CartKey: ProductionStoreKey {
    static let productionValue = ValueStore(key: "cart", default: Cart(), storage: InMemoryStorage())
    static var stubValue: ValueStore<Cart> { ValueStore(stub: Cart()) }
}

extension StoreValues {
    fileprivate var cart: ValueStore<Cart> {
        get { self[CartKey.self] }
        set { self[CartKey.self] = newValue }
    }
}

/// What a test's observer saw, in order.
private final class Seen<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// A fresh folder of the test's own, removed afterwards.
private func withFolder(_ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appending(
        path: "OwnAppTests-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(folder)
}

@Suite struct OwnAppAcceptanceTests {
    /// Point 1: a persisted countdown of the app's own, observed on its own center, driven by a
    /// manual clock, and read back by a second store on the same storage (a relaunch).
    @Test func anOrderArrivalCountdownOfItsOwn() async throws {
        let clock = ManualClock()
        let wall = clock.wallClock(startingAt: Date(timeIntervalSince1970: 1_700_000_000))
        let storage = InMemoryStorage()
        let center = NotificationCenter()
        let arrival = CountdownStore(key: "order-arrival", clock: clock, wallClock: wall, storage: storage, center: center)
        #expect(arrival.center === center)

        let shown = Seen<Int>()
        let ends = Seen<CountdownEnd>()
        let token = arrival.observe { shown.append($0) }
        let endToken = arrival.observeEnds { ends.append($0) }
        // A classic observer of the store's center sees the same posts.
        let classic = Seen<Int>()
        let classicToken = arrival.ticks.observe(center: arrival.center) { classic.append($0) }
        defer {
            token.cancel()
            endToken.cancel()
            classicToken.cancel()
        }

        try arrival.start(duration: .seconds(90))
        #expect(arrival.remainingSeconds == 90)
        await clock.advance(by: .seconds(30))
        #expect(arrival.remainingSeconds == 60)
        #expect(shown.all.first == 90 && shown.all.last == 60)
        #expect(shown.all == Array((60...90).reversed()), "one call per shown second")
        #expect(classic.all == shown.all)

        let relaunched = CountdownStore(
            key: "order-arrival", clock: clock, wallClock: wall, storage: storage, center: NotificationCenter(),
            watching: .off)
        #expect(relaunched.remainingSeconds == 60, "the running countdown is on the storage")
        #expect(relaunched.endDate == arrival.endDate)

        try arrival.stop()
        #expect(shown.all.last == 0, "a stop shows 0")
        #expect(ends.all == [.stopped])
        #expect(throws: CountdownError.invalidDuration(.zero)) { try arrival.startIfIdle(duration: .zero) }
    }

    /// Point 1: only one of two starts on an idle countdown wins; the loser is told how long is left.
    @Test func startIfIdleRefusesARunningCountdown() throws {
        let clock = ManualClock()
        let arrival = CountdownStore(stub: .zero, clock: clock)
        try arrival.startIfIdle(duration: .seconds(90))
        #expect(throws: CountdownError.alreadyRunning(remainingSeconds: 90)) {
            try arrival.startIfIdle(duration: .seconds(30))
        }
        try arrival.extend(by: .seconds(10))
        #expect(arrival.remainingSeconds == 100)
    }

    /// Point 2: under `.stubbedStores` a key's stub is made once: it keeps the test's write, and
    /// every read is the same instance.
    @Test(.stubbedStores) func aStubKeepsTheTestsWriteAndIsOneInstance() throws {
        #expect(StoreValues.current.cart === StoreValues.current.cart)
        try StoreValues.current.cart.update { $0.items.append("pizza") }
        #expect(StoreValues.current.cart.value.items == ["pizza"])
    }

    /// Point 3: two value stores of different types on one document: the second is reported,
    /// and the first's document stays as it was.
    @Test func aKeyClashIsReportedAndTheFirstDocumentIsIntact() throws {
        try withFolder { folder in
            let storage = FileStorage(folder: folder)
            let issues = Seen<StoreIssue>()
            let cart = ValueStore(
                key: "settings", default: Cart(), storage: storage, watching: .off, reportIssue: { issues.append($0) })
            try cart.update { $0.items = ["pizza"] }
            let document = folder.appending(path: "settings.json")
            let written = try Data(contentsOf: document)

            let settings = ValueStore(
                key: "settings", default: AppSettings(), storage: storage, watching: .off,
                reportIssue: { issues.append($0) })

            guard case .documentKeyInUse(let key, _, _)? = issues.all.first, issues.all.count == 1 else {
                Issue.record("expected one documentKeyInUse, got \(issues.all)")
                return
            }
            #expect(key == "settings")
            #expect(settings.value == AppSettings())
            #expect(try Data(contentsOf: document) == written, "the first store's document is unchanged")
            #expect(cart.value.items == ["pizza"])
        }
    }
}
