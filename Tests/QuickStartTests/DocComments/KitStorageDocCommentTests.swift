// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// More examples of the kit's doc comments (Sources/SingletonStores), verbatim between the
// markers, inside functions that give them what they assume, so that they compile. Those that
// use the platform's data folder (`FileStorage()`) only compile; the tests run the others on
// in-memory storage. QuickStartTests/DocCommentSnippetTests checks that the comments and this
// file agree.
import Foundation
import SingletonStores
import Synchronization
import Testing

// What the examples assume an app declares.
enum Theme: String, Codable, Sendable {
    case system, dark
}

struct Settings: Codable, Sendable, Equatable {
    var fontSize = 17
    var theme = Theme.system
}

extension NotificationChannel where Payload == StoreChange<Settings> {
    static let settings = NotificationChannel("DocComments.settings")
}

struct CartState: Sendable, Equatable {
    var items = 0
}

enum CartError: Error {
    case empty
}

struct ClockFaceStub: ClockFaceContract {
    var style: String
}

extension CounterStore: CounterContract {}

enum Repeat: Codable, Sendable {
    case never, daily(hour: Int)
}

struct RepeatVersion1: Codable, Sendable {
    var daily: Bool
    var current: Repeat { daily ? .daily(hour: 9) : .never }
}

enum PurchaseItem: Sendable {
    case boost
}

struct Ledger: Codable, Sendable, Equatable {
    var boosts = 0
    mutating func spend(_ item: PurchaseItem) -> Bool {
        guard boosts > 0 else { return false }
        boosts -= 1
        return true
    }
}

struct ExampleLogger: Sendable {
    func warning(_ message: String) {}
}

let logger = ExampleLogger()

func report(_ problem: StorageError) {}

// Doc "SingletonStores/Core/PersistentStoreCore.swift" snippet 1: begin
final class SettingsStore: Sendable {
    static let shared = SettingsStore()
    private let persisted: PersistentStoreCore<Settings>

    init(storage: any StoreStorage = FileStorage(), center: NotificationCenter = .default) {
        persisted = PersistentStoreCore(
            key: "settings", default: Settings(), storage: storage,
            channel: .settings, center: center)
    }
    var settings: Settings { persisted.state }
    func setTheme(_ theme: Theme) throws(StorageError) {
        try persisted.update { $0.theme = theme }
    }
}
// Doc "SingletonStores/Core/PersistentStoreCore.swift" snippet 1: end

func storeChangeExample(counter: StoreCore<Int>) -> ObservationToken {
// Doc "SingletonStores/Core/StoreChange.swift" snippet 1: begin
let token = counter.observe { change in
    print("\(change.old) → \(change.new)", change.origin == .otherProcess ? "(another process)" : "")
}
// Doc "SingletonStores/Core/StoreChange.swift" snippet 1: end
    return token
}

// Doc "SingletonStores/Core/StoreCore.swift" snippet 1: begin
extension NotificationChannel where Payload == StoreChange<Int> {
    static let counter = NotificationChannel("CounterStore.changed")
}

final class CounterStore: Sendable {
    static let shared = CounterStore()
    private let core: StoreCore<Int>

    init(center: NotificationCenter = .default) {
        core = StoreCore(0, channel: .counter, center: center)
    }
    var count: Int { core.state }
    func increment() { core.update { $0 += 1 } }
}
// Doc "SingletonStores/Core/StoreCore.swift" snippet 1: end

func takeOne(core: StoreCore<CartState>) throws -> Int {
// Doc "SingletonStores/Core/StoreCore.swift" snippet 2: begin
let left = try core.update { cart in
    guard cart.items > 0 else { throw CartError.empty }
    cart.items -= 1
    return cart.items
}
// Doc "SingletonStores/Core/StoreCore.swift" snippet 2: end
    return left
}

// Doc "SingletonStores/Persistence/Decoder+DocumentFormatVersion.swift" snippet 1: begin
struct Alarm: Codable {
    var repeats: Repeat   // an enum with a payload, written by hand since format 2

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if decoder.documentFormatVersion == 1 {
            repeats = try container.decode(RepeatVersion1.self, forKey: .repeats).current
        } else {
            repeats = try container.decode(Repeat.self, forKey: .repeats)
        }
    }
}
// Doc "SingletonStores/Persistence/Decoder+DocumentFormatVersion.swift" snippet 1: end

/// Compiles only: it writes to the platform's data folder.
func fileStorageExample() throws {
// Article "StoringDocumentsInFiles" snippet 1: begin
struct Counter: Codable, Sendable { var count = 0 }

let storage = FileStorage()                 // ~/.local/share/<app>, or Application Support/<app>
let start = try storage.load(StoreDocument(key: "counter", default: Counter()))
if let problem = start.recovery { print(problem) }   // a bad file was kept aside

let update = try storage.update(StoreDocument(key: "counter", default: Counter())) {
    $0.count += 1
}
print(update.value.count)                   // what is on disk now, across processes
// Article "StoringDocumentsInFiles" snippet 1: end
}

func storageErrorExample(storage: any StoreStorage) {
// Doc "SingletonStores/Persistence/StorageError.swift" snippet 1: begin
do {
    let loaded = try storage.load(StoreDocument(key: "profile", default: Profile()))
    if let problem = loaded.recovery { print(problem) }  // kept aside, starting fresh
} catch {
    print(error)                                          // nothing could be read or kept
}
// Doc "SingletonStores/Persistence/StorageError.swift" snippet 1: end
}

func storageLoadExample(storage: any StoreStorage) throws -> StoreCore<Settings> {
// Doc "SingletonStores/Persistence/Documents/StoreStorage+Documents.swift" snippet 1: begin
let loaded = try storage.load(StoreDocument(key: "settings", default: Settings()))
let core = StoreCore(loaded.value, channel: .settings)
if let problem = loaded.recovery { report(problem) }   // after init, outside any lock
// Doc "SingletonStores/Persistence/Documents/StoreStorage+Documents.swift" snippet 1: end
    return core
}

/// Compiles only: it uses the platform's data folder.
func storageNoticeExample() -> FileStorage {
// Doc "SingletonStores/Persistence/StorageNotice.swift" snippet 1: begin
let storage = FileStorage(reportNotice: { notice in logger.warning("\(notice)") })
// Doc "SingletonStores/Persistence/StorageNotice.swift" snippet 1: end
    return storage
}

func storageUpdateExample(
    storage: any StoreStorage, state: borrowing Mutex<Ledger>, post: (Ledger) -> Void
) throws {
// Doc "SingletonStores/Persistence/Documents/StoreStorage+Documents.swift" snippet 2: begin
let update = try storage.update(StoreDocument(key: "purchases", default: Ledger())) {
    $0.spend(.boost)                        // returns false when there is none to spend
}
state.withLock { $0 = update.value }      // adopt what is on disk now
if update.outcome { post(update.value) }  // post after every lock is released
// Doc "SingletonStores/Persistence/Documents/StoreStorage+Documents.swift" snippet 2: end
}

/// Compiles only: it uses the platform's data folder.
func storeStorageExample() throws {
// Doc "SingletonStores/Persistence/StoreStorage.swift" snippet 1: begin
let persisted = PersistentStoreCore(
    key: "settings", default: Settings(), storage: FileStorage(), channel: .settings)
try persisted.update { $0.fontSize = 17 }
// Doc "SingletonStores/Persistence/StoreStorage.swift" snippet 1: end
}

/// Compiles only: it uses the platform's data folder.
func storageWatchingExample() -> (PersistentStoreCore<Settings>, PersistentStoreCore<Settings>) {
// Doc "SingletonStores/Persistence/Watching/StorageWatching.swift" snippet 1: begin
// The default: file events where the platform has them, else a poll every 250 ms.
let live = PersistentStoreCore(key: "settings", default: Settings(), storage: FileStorage(),
                               channel: .settings)
// Only this process writes the document: don't watch it.
let solo = PersistentStoreCore(key: "settings", default: Settings(), storage: FileStorage(),
                               channel: .settings, watching: .off)
// Doc "SingletonStores/Persistence/Watching/StorageWatching.swift" snippet 1: end
    return (live, solo)
}

func unusableValueExample(settings: Settings, reportIssue: (StoreIssue) -> Void) {
// Doc "SingletonStores/Registry/StoreIssue.swift" snippet 1: begin
if settings.fontSize > 72 {
    reportIssue(.unusableStoredValue(key: "settings", message:
        "The stored font size \(settings.fontSize) is above 72; 72 is used. Set it again to replace it."))
}
// Doc "SingletonStores/Registry/StoreIssue.swift" snippet 1: end
}

// Doc "SingletonStores/Registry/StoreKey.swift" snippet 1: begin
protocol ClockFaceContract: Sendable { var style: String { get } }

enum ClockFaceKey: StoreKey {
    static var stubValue: any ClockFaceContract { ClockFaceStub(style: "digital") }
}

extension StoreValues {
    var clockFace: any ClockFaceContract {
        get { self[ClockFaceKey.self] }
        set { self[ClockFaceKey.self] = newValue }
    }
}
// Doc "SingletonStores/Registry/StoreKey.swift" snippet 1: end

enum CartVariantsKey: StoreKey {
    static var stubValue: any CartContract { CartStub(itemCount: 0) }
// Doc "SingletonStores/Registry/StoreKey.swift" snippet 2: begin
static var launchVariants: [String: any CartContract] {
    ["empty": CartStub(itemCount: 0), "full": CartStub(itemCount: 99)]
}
// Doc "SingletonStores/Registry/StoreKey.swift" snippet 2: end
}

// Doc "SingletonStores/Registry/StoreKey.swift" snippet 3: begin
enum CounterKey: ProductionStoreKey {
    static var productionValue: any CounterContract { CounterStore.shared }
    static var stubValue: any CounterContract { CounterStub(count: 0) }
}
// Doc "SingletonStores/Registry/StoreKey.swift" snippet 3: end

// Doc "SingletonStores/Core/ValueStore.swift" snippet 1: begin
struct Session: Codable, Sendable, Equatable { var token = ""; var userID: String? }

enum SessionKey: ProductionStoreKey {
    static let productionValue = ValueStore(key: "session", default: Session())
    static var stubValue: ValueStore<Session> { ValueStore(stub: Session()) }
}
extension StoreValues {
    var session: ValueStore<Session> { get { self[SessionKey.self] } set { self[SessionKey.self] = newValue } }
}
// Doc "SingletonStores/Core/ValueStore.swift" snippet 1: end

/// Never run: it writes the production session, on the platform's data folder.
func valueStoreExample() throws {
// Doc "SingletonStores/Core/ValueStore.swift" snippet 2: begin
try StoreValues.current.session.update { $0.token = "t-1" }

withStores { $0.session = ValueStore(stub: Session(token: "t-2")) } operation: {
    #expect(StoreValues.current.session.value.token == "t-2")
}
// Doc "SingletonStores/Core/ValueStore.swift" snippet 2: end
}

@Suite struct KitStorageDocCommentTests {
    @Test func aSessionStubIsReadInItsScope() {
        withStores { $0.session = ValueStore(stub: Session(token: "t-3")) } operation: {
            #expect(StoreValues.current.session.value.token == "t-3")
        }
    }

    @Test func theSettingsStoreKeepsItsTheme() throws {
        let storage = InMemoryStorage()
        try SettingsStore(storage: storage, center: NotificationCenter()).setTheme(.dark)
        #expect(storage.value(Settings.self, forKey: "settings")?.theme == .dark)
        let loaded = try storageLoadExample(storage: storage)
        #expect(loaded.state.theme == .dark)
        storageErrorExample(storage: storage)
    }

    @Test func theCounterIsObservedAndTheCartRefusesToGoBelowZero() throws {
        let counter = StoreCore(0, channel: .counter, center: NotificationCenter())
        let token = storeChangeExample(counter: counter)
        counter.update { $0 += 1 }
        token.cancel()
        let store = CounterStore(center: NotificationCenter())
        store.increment()
        #expect(store.count == 1)
        let cart = StoreCore(CartState(items: 1), channel: NotificationChannel("DocComments.cartState"), center: NotificationCenter())
        #expect(try takeOne(core: cart) == 0)
        #expect(throws: CartError.empty) { try takeOne(core: cart) }
    }

    @Test func anOldAlarmDecodesOutsideAStorageAsTheCurrentShape() throws {
        let alarm = try JSONDecoder().decode(Alarm.self, from: Data(#"{"repeats":{"never":{}}}"#.utf8))
        if case .never = alarm.repeats {} else { Issue.record("expected .never, got \(alarm.repeats)") }
    }

    @Test func aSpentBoostIsAdoptedAndPosted() throws {
        let storage = InMemoryStorage(["purchases": Ledger(boosts: 1)])
        let state = Mutex(Ledger())
        let posted = Mutex<[Ledger]>([])
        try storageUpdateExample(storage: storage, state: state) { ledger in posted.withLock { $0.append(ledger) } }
        #expect(state.withLock { $0 } == Ledger(boosts: 0))
        #expect(posted.withLock { $0 } == [Ledger(boosts: 0)])
    }

    @Test func anUnusableValueIsReportedWithTheKey() {
        let issues = Mutex<[StoreIssue]>([])
        unusableValueExample(settings: Settings(fontSize: 90)) { issue in issues.withLock { $0.append(issue) } }
        #expect(issues.withLock { $0 }.count == 1)
    }

    @Test func theKeysReadTheirValues() {
        withStores { $0.clockFace = ClockFaceStub(style: "analog") } operation: {
            #expect(StoreValues.current.clockFace.style == "analog")
        }
        #expect(CartVariantsKey.launchVariants["full"]?.itemCount == 99)
        #expect(CounterKey.stubValue.count == 0)
    }
}

// Doc "SingletonStores/Persistence/StoreDocument.swift" snippet 1: begin
struct ReaderSettings: Codable, Sendable, Equatable {
    static let document = StoreDocument(key: "reader-settings", default: ReaderSettings())
    var fontSize = 14.0
}

func readerSettings(in storage: any StoreStorage) -> ValueStore<ReaderSettings> {
    ValueStore(ReaderSettings.document, storage: storage)
}
// Doc "SingletonStores/Persistence/StoreDocument.swift" snippet 1: end

@Suite struct StoreDocumentDocCommentTests {
    @Test func aDocumentNamedOnceBacksAStore() throws {
        let storage = InMemoryStorage(["reader-settings": ReaderSettings(fontSize: 18)])
        #expect(readerSettings(in: storage).value.fontSize == 18)
        #expect(try storage.load(ReaderSettings.document).value.fontSize == 18)
    }
}
