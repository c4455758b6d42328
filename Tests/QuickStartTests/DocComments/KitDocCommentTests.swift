// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of the kit's doc comments (Sources/SingletonStores), verbatim between the markers,
// so that they compile; the tests below run those that touch nothing process-wide and no data
// folder.
// QuickStartTests/DocCommentSnippetTests checks that the comments and this file agree.
import Foundation
import Observation
import SingletonStores
import Synchronization
import Testing

// What the examples assume an app declares (the README's cart, a value store, is declared in
// ReadmeQuickStartTests.swift; the cart with a contract here).
protocol CartContract: Sendable {
    var itemCount: Int { get }
}

struct CartStub: CartContract {
    var itemCount: Int
}

protocol CounterContract: Sendable {
    var count: Int { get }
    func increment()
}

private enum WalletKey: StoreKey {
    static var stubValue: Int { 0 }
}

struct Profile: Codable, Sendable, Equatable {
    var name = ""
}

extension NotificationChannel where Payload == StoreChange<Profile> {
    static let profile = NotificationChannel("DocComments.profile")
}

final class ProfileStore: Sendable {
    private let persisted: PersistentStoreCore<Profile>
    init(storage: any StoreStorage) {
        persisted = PersistentStoreCore(
            key: "profile", default: Profile(), storage: storage, channel: .profile, center: NotificationCenter(),
            reportIssue: { _ in })
    }
    var profile: Profile { persisted.state }
    var loadProblem: StorageError? { persisted.loadProblem }
    func rename(to name: String) throws(StorageError) { try persisted.update { $0.name = name } }
}

// Doc "SingletonStores/Core/StoreStub.swift" snippet 1: begin
final class CounterStub: CounterContract {
    let stub: StoreStub<Int>
    init(count: Int = 0) { stub = StoreStub(count, channel: .counter) }
    var count: Int { stub.state }
    func increment() { stub.update { $0 += 1 } }
}
// Doc "SingletonStores/Core/StoreStub.swift" snippet 1: end

// Doc "SingletonStores/Persistence/InMemoryStorage.swift" snippet 1: begin
@Test func profileStartsFromDefaultsAfterADamagedFile() throws {
    let storage = InMemoryStorage(["profile": Profile(name: "Aki")])
    storage.simulateRecovery(
        .corrupted(file: InMemoryStorage.location(forKey: "profile"),
                   keptAt: InMemoryStorage.location(forKey: "profile~corrupt"),
                   reason: "truncated"),
        forKey: "profile"
    )
    let store = ProfileStore(storage: storage)
    #expect(store.profile == Profile())                 // started from defaults
    #expect(store.loadProblem != nil)                   // and said so

    try store.rename(to: "Mei")
    #expect(storage.value(Profile.self, forKey: "profile")?.name == "Mei")
}
// Doc "SingletonStores/Persistence/InMemoryStorage.swift" snippet 1: end

/// Never run: it reads the production cart, on the platform's data folder.
func allowProductionValuesExample() {
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 5: begin
withStores { $0.allowProductionValues() } operation: {
    print(badgeText())  // reads the production cart, even in a test
}
// Doc "SingletonStores/Registry/StoreValues.swift" snippet 5: end
}

/// Never run: `prepareStores` sets the stores of the whole process.
func launchVariantsExample() {
// Doc "SingletonStores/Registry/Launch/StoreLaunchVariants.swift" snippet 1: begin
prepareStores { $0.applyLaunchVariants(keys: [CartKey.self, WalletKey.self]) }
// Doc "SingletonStores/Registry/Launch/StoreLaunchVariants.swift" snippet 1: end
}

/// Never run: `prepareStores` sets the stores of the whole process.
func launchVariantsThrowingExample(arguments: [String], environment: [String: String]) throws {
// Doc "SingletonStores/Registry/Launch/StoreLaunchVariants.swift" snippet 2: begin
let launch = try StoreLaunchVariants(arguments: arguments, environment: environment)
try prepareStores { try $0.apply(launch, keys: [CartKey.self, WalletKey.self]) }
// Doc "SingletonStores/Registry/Launch/StoreLaunchVariants.swift" snippet 2: end
}

/// Never run: `prepareStores` sets the stores of the whole process.
func applyLaunchVariantsExample() {
// Doc "SingletonStores/Registry/Launch/StoreLaunchVariants.swift" snippet 3: begin
prepareStores { $0.applyLaunchVariants(keys: [CartKey.self, WalletKey.self]) }
// Doc "SingletonStores/Registry/Launch/StoreLaunchVariants.swift" snippet 3: end
}

struct Draft: Codable, Sendable, Equatable { var text = "" }

enum DraftKey: StoreKey {
    static var stubValue: ValueStore<Draft> { ValueStore(stub: Draft()) }
}

extension StoreValues {
    var draft: ValueStore<Draft> { get { self[DraftKey.self] } set { self[DraftKey.self] = newValue } }
}

// Doc "SingletonStores/Registry/CurrentStore.swift" snippet 1: begin
@Observable final class DraftModel {
    @ObservationIgnored @CurrentStore(\.draft) var draft  // the store current when the model is made
    var text: String { draft.value.text }
}
// Doc "SingletonStores/Registry/CurrentStore.swift" snippet 1: end

@Suite struct KitDocCommentTests {
    @Test func aModelKeepsTheStoreOfTheScopeItWasMadeIn() throws {
        let stub = ValueStore(stub: Draft(text: "kept"))
        let model = withStores { $0.draft = stub } operation: { DraftModel() }
        #expect(model.draft === stub, "read once, when the model was made")
        #expect(model.text == "kept")
        try stub.update { $0.text = "changed" }
        let redraws = Mutex(0)
        _ = withObservationTracking { model.text } onChange: { redraws.withLock { $0 += 1 } }
        try stub.update { $0.text = "again" }
        #expect(redraws.withLock { $0 } == 1, "a view reading through the model redraws on the store's change")
    }

    @Test func theCounterStubChangesPostsAndRedraws() {
        let stub = CounterStub(count: 1)
        let redraws = Mutex(0)
        let posted = Mutex<[Int]>([])
        let token = stub.stub.observe { change in posted.withLock { $0.append(change.new) } }
        defer { token.cancel() }
        let shown = withObservationTracking { stub.count } onChange: { redraws.withLock { $0 += 1 } }
        #expect(shown == 1)
        stub.increment()
        #expect(redraws.withLock { $0 } == 1)
        #expect(posted.withLock { $0 } == [2])
        #expect(stub.count == 2)
    }
}
