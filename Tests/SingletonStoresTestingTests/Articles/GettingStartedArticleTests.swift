// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "Getting started" (Sources/SingletonStores/SingletonStores.docc),
// verbatim between the markers, so that it always compiles; its two tests run as part of the
// suite, and the suite below runs the rest on a temporary folder and a center of its own.
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.
import Observation
import SingletonStoresLocking
import SingletonStoresTestSupport

// Article "GettingStarted" snippet 3: begin
import Foundation
import SingletonStores

struct Settings: Codable, Sendable, Equatable {
    var fontSize = 17
    var usesLargeTitles = false
}

extension NotificationChannel where Payload == StoreChange<Settings> {
    static let settings = NotificationChannel("SettingsStore.changed")
}
// Article "GettingStarted" snippet 3: end

// Article "GettingStarted" snippet 4: begin
protocol SettingsStoreContract: Sendable {
    var settings: Settings { get }
    var center: NotificationCenter { get }  // where `.settings` is posted
    func setFontSize(_ size: Int) throws(StorageError)
}

final class SettingsStore: SettingsStoreContract {
    static let shared = SettingsStore()
    private let persisted: PersistentStoreCore<Settings>

    init(storage: any StoreStorage = FileStorage(), center: NotificationCenter = .default) {
        persisted = PersistentStoreCore(
            key: "settings", default: Settings(), storage: storage, channel: .settings, center: center)
    }

    var settings: Settings { persisted.state }
    var center: NotificationCenter { persisted.center }

    func setFontSize(_ size: Int) throws(StorageError) {
        try persisted.update { $0.fontSize = min(max(size, 9), 72) }
    }

    func observe(_ handler: @escaping @Sendable (StoreChange<Settings>) -> Void) -> ObservationToken {
        persisted.observe(handler)
    }
}
// Article "GettingStarted" snippet 4: end

// Article "GettingStarted" snippet 5: begin
func startWatchingFontSize(of store: SettingsStore = .shared) -> ObservationToken {
    store.observe { change in
        print("font size \(change.old.fontSize) → \(change.new.fontSize)")
    }
}
// Article "GettingStarted" snippet 5: end

// Article "GettingStarted" snippet 6: begin
final class SettingsStub: SettingsStoreContract {  // changes, posts and redraws like the store
    let stub: StoreStub<Settings>
    init(settings: Settings = Settings()) { stub = StoreStub(settings, channel: .settings) }
    var settings: Settings { stub.state }
    var center: NotificationCenter { stub.center }
    func setFontSize(_ size: Int) throws(StorageError) { stub.update { $0.fontSize = min(max(size, 9), 72) } }
}

enum SettingsKey: ProductionStoreKey {
    static var productionValue: any SettingsStoreContract { SettingsStore.shared }
    static var stubValue: any SettingsStoreContract { SettingsStub() }
}

extension StoreValues {
    var settings: any SettingsStoreContract {
        get { self[SettingsKey.self] }
        set { self[SettingsKey.self] = newValue }
    }
}

func titleStyle(settings: any SettingsStoreContract = StoreValues.current.settings) -> String {
    settings.settings.fontSize > 24 ? "large" : "regular"
}
// Article "GettingStarted" snippet 6: end

// Article "GettingStarted" snippet 7: begin
import SingletonStoresTesting
import Testing

@Test(.stores { $0.settings = SettingsStub(settings: Settings(fontSize: 30)) })
func largeTextUsesLargeTitles() {
    #expect(titleStyle() == "large")
}

@Test func fontSizesAreClampedAndPostedOnce() throws {
    let center = NotificationCenter()
    let store = SettingsStore(storage: InMemoryStorage(), center: center)
    try expectChanges(on: center, [
        RecordedChange(.settings, StoreChange(old: Settings(), new: Settings(fontSize: 72))),
    ]) {
        try store.setFontSize(500)
        try store.setFontSize(90)  // still 72: nothing changes, nothing is posted
    }
}
// Article "GettingStarted" snippet 7: end

// Article "GettingStarted" snippet 1: begin
import SingletonStores
import Testing

struct Draft: Codable, Sendable, Equatable { var text = "" }

enum DraftKey: ProductionStoreKey {
    static let productionValue = ValueStore(key: "draft", default: Draft())
    static var stubValue: ValueStore<Draft> { ValueStore(stub: Draft()) }
}
extension StoreValues {
    var draft: ValueStore<Draft> { get { self[DraftKey.self] } set { self[DraftKey.self] = newValue } }
}

@Test func aDraftStubChangesLikeTheStore() throws {
    try withStores { $0.draft = ValueStore(stub: Draft()) } operation: {
        try StoreValues.current.draft.update { $0.text = "Hello" }
        #expect(StoreValues.current.draft.value.text == "Hello")
    }
}
// Article "GettingStarted" snippet 1: end

// Article "GettingStarted" snippet 2: begin
import Observation

@Observable final class DraftModel {
    @ObservationIgnored @CurrentStore(\.draft) var draft  // read once, when the model is made
    var text: String { draft.value.text }  // a view reading this redraws on every change
    func type(_ text: String) throws { try draft.update { $0.text = text } }
}

@Test func aModelMadeInATestUsesTheTestsStub() throws {
    try withStores { $0.draft = ValueStore(stub: Draft()) } operation: {
        let model = DraftModel()
        try model.type("Hi")
        #expect(StoreValues.current.draft.value.text == "Hi")
    }
}
// Article "GettingStarted" snippet 2: end

@Suite struct GettingStartedArticleTests {
    @Test func theStoreIsObservedAndKeptBetweenLaunches() throws {
        try withTemporaryFolder { folder in
            let center = NotificationCenter()
            let store = SettingsStore(storage: FileStorage(folder: folder), center: center)
            let recorder = ChangeRecorder(center: center)
            let token = startWatchingFontSize(of: store)
            defer { token.cancel() }
            try store.setFontSize(20)
            #expect(recorder.newValues(of: .settings) == [Settings(fontSize: 20)])

            let relaunched = SettingsStore(storage: FileStorage(folder: folder), center: NotificationCenter())
            #expect(relaunched.settings.fontSize == 20)
            #expect(FileManager.default.fileExists(atPath: folder.appending(path: "settings.json").path))
        }
    }

    @Test(.stubbedStores) func theKeysStubIsRegularText() {
        #expect(titleStyle() == "regular")
    }

    /// The article's stub behaves like the store: it clamps and posts on its own center, and a
    /// screen that reads it (`titleStyle` under Observation, as a SwiftUI body) redraws.
    @Test func theStubChangesPostsAndRedrawsTheTitle() throws {
        let stub = SettingsStub()
        let recorder = ChangeRecorder(center: stub.stub.center)
        let redraws = Locked(0)
        let style = withObservationTracking { titleStyle(settings: stub) } onChange: { redraws.withLock { $0 += 1 } }
        #expect(style == "regular")
        try stub.setFontSize(500)
        #expect(redraws.withLock { $0 } == 1)
        #expect(recorder.newValues(of: .settings) == [Settings(fontSize: 72)])
        #expect(titleStyle(settings: stub) == "large")
    }

    /// A screen written against the contract observes `.settings` on the contract's center: it
    /// redraws for the stub as for the store.
    @Test func aScreenObservingTheContractsCenterFollowsTheStub() throws {
        for settings: any SettingsStoreContract in [
            SettingsStub(), SettingsStore(storage: InMemoryStorage(), center: NotificationCenter()),
        ] {
            let redraws = Recorder<Int>()
            let token = NotificationChannel.settings.observe(center: settings.center) { redraws.append($0.new.fontSize) }
            try settings.setFontSize(30)
            #expect(redraws.values == [30])
            token.cancel()
        }
    }

    @Test func aStoreCanBeHandedIn() {
        #expect(titleStyle(settings: SettingsStub(settings: Settings(fontSize: 12))) == "regular")
    }
}
