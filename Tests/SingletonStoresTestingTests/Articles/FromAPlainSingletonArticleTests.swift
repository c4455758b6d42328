// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "From a plain singleton" (Sources/SingletonStores/SingletonStores.docc),
// verbatim between the markers, so that it always compiles. The starting point is kept in a
// type of its own (its types have the names the later steps give to their replacements); the
// steps are this module's own types, the article's tests run as part of the suite, and the
// suite at the end runs the rest on stores and centers of its own. The last snippet, which uses
// the built-in stores, is mirrored in Tests/StoresTests/Articles/FromAPlainSingletonBuiltInsTests.swift.
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.
import SingletonStoresTestSupport

/// The starting point of the article: plain singletons, a timer per screen, a stub by hand.
struct PlainSingletonStart {
// Article "FromAPlainSingleton" snippet 1: begin
@MainActor final class BoostTimeManager {
    static let shared = BoostTimeManager()
    var remainingSeconds = 0  // any code may set it
    var isInBoostTime: Bool { remainingSeconds > 0 }
    private var timer: Timer?

    func startCountDown(duration: Int) {
        remainingSeconds = duration
        timer?.invalidate()
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            MainActor.assumeIsolated { BoostTimeManager.shared.countDown() }
        }
    }

    private func countDown() {
        guard isInBoostTime else { timer?.invalidate(); return }
        remainingSeconds -= 1
        NotificationCenter.default.post(name: Notification.Name("boostTime"), object: remainingSeconds)
    }
}
// Article "FromAPlainSingleton" snippet 1: end

// Article "FromAPlainSingleton" snippet 2: begin
@MainActor final class BoostPopup {  // opens a moment after the main screen
    var timerText = ""
    private var seconds = 0
    private var timer: Timer?

    func viewDidAppear() {
        seconds = BoostTimeManager.shared.remainingSeconds  // a copy, on its own from now on
        timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            MainActor.assumeIsolated { self.tick() }
        }
    }

    private func tick() {
        seconds -= 1
        timerText = String(format: "%02d:%02d", seconds / 60, seconds % 60)
    }
}

final class ProfileManager {
    nonisolated(unsafe) static let shared = ProfileManager()
    var genderCode: Int?  // 1 male, 2 female; read and written from anywhere
}

protocol GenderStoreContract {
    var isMale: Bool { get }
    var isFemale: Bool { get }
    var genderCode: Int? { get }
}

struct GenderStore: GenderStoreContract {
    var isMale: Bool { ProfileManager.shared.genderCode == 1 }
    var isFemale: Bool { ProfileManager.shared.genderCode == 2 }
    var genderCode: Int? { ProfileManager.shared.genderCode }
}

struct GenderStoreStub: GenderStoreContract {
    let isMale: Bool
    let isFemale: Bool
    let genderCode: Int?

    init(isFemale: Bool, isNilGenderCode: Bool) {
        self.isFemale = isFemale
        isMale = !isFemale
        genderCode = isNilGenderCode ? nil : (isFemale ? 2 : 1)
    }
}

func helpURL(gender: any GenderStoreContract = GenderStore()) -> String {
    let base = "https://www.example.com/help"
    return gender.genderCode.map { "\(base)?gender_code=\($0)" } ?? base
}
// Article "FromAPlainSingleton" snippet 2: end
}

// Article "FromAPlainSingleton" snippet 3: begin
import Foundation
import SingletonStores
import Timers

extension NotificationChannel where Payload == Int {
    static let boostTime = NotificationChannel("boostTime")
}

final class BoostTimeManager: Sendable {
    static let shared = BoostTimeManager()
    private let timer: CountdownTimer

    init(clock: some Clock<Duration> = ContinuousClock(), center: NotificationCenter = .default) {
        timer = CountdownTimer(clock: clock) { event in
            if case .tick(let seconds) = event {
                NotificationChannel.boostTime.post(seconds, object: seconds, center: center)
            }
        }
    }

    var remainingSeconds: Int { timer.shownSeconds }  // derived from the deadline, on any thread
    var isInBoostTime: Bool { remainingSeconds > 0 }
    func startCountDown(duration: Int) { timer.start(duration: .seconds(duration)) }
}
// Article "FromAPlainSingleton" snippet 3: end

// Article "FromAPlainSingleton" snippet 4: begin
@MainActor final class BoostPopup {
    private(set) var timerText = ""
    private var token: ObservationToken?

    func viewDidAppear(boost: BoostTimeManager = .shared, center: NotificationCenter = .default) {
        show(boost.remainingSeconds)  // the store's value, however late the popup opens
        token = NotificationChannel.boostTime.observeOnMainActor(center: center) { [weak self] seconds in
            self?.show(seconds)  // the same post the main screen gets
        }
    }

    private func show(_ seconds: Int) { timerText = seconds.formatted(.countdown) }
}
// Article "FromAPlainSingleton" snippet 4: end

// Article "FromAPlainSingleton" snippet 5: begin
struct Profile: Codable, Sendable, Equatable {
    var genderCode: Int?
}

extension NotificationChannel where Payload == StoreChange<Profile> {
    static let profile = NotificationChannel("ProfileStore.changed")
}

final class ProfileStore: Sendable {
    static let shared = ProfileStore()
    private let persisted: PersistentStoreCore<Profile>

    init(storage: any StoreStorage = FileStorage(), center: NotificationCenter = .default) {
        persisted = PersistentStoreCore(
            key: "profile", default: Profile(), storage: storage, channel: .profile, center: center)
    }

    var genderCode: Int? { persisted.state.genderCode }

    func setGenderCode(_ code: Int?) throws(StorageError) {
        try persisted.update { $0.genderCode = code }
    }
}
// Article "FromAPlainSingleton" snippet 5: end

// The stub of the starting point, unchanged: the contract's `Sendable` makes it `Sendable` too.
struct GenderStoreStub: GenderStoreContract {
    let isMale: Bool
    let isFemale: Bool
    let genderCode: Int?

    init(isFemale: Bool, isNilGenderCode: Bool) {
        self.isFemale = isFemale
        isMale = !isFemale
        genderCode = isNilGenderCode ? nil : (isFemale ? 2 : 1)
    }
}

// Article "FromAPlainSingleton" snippet 6: begin
protocol GenderStoreContract: Sendable {
    var isMale: Bool { get }
    var isFemale: Bool { get }
    var genderCode: Int? { get }
}

struct GenderStore: GenderStoreContract {
    var profile: ProfileStore = .shared
    var isMale: Bool { genderCode == 1 }
    var isFemale: Bool { genderCode == 2 }
    var genderCode: Int? { profile.genderCode }
}

enum GenderStoreKey: ProductionStoreKey {
    static var productionValue: any GenderStoreContract { GenderStore() }
    static var stubValue: any GenderStoreContract { GenderStoreStub(isFemale: false, isNilGenderCode: true) }
}

extension StoreValues {
    var gender: any GenderStoreContract {
        get { self[GenderStoreKey.self] }
        set { self[GenderStoreKey.self] = newValue }
    }
}

func helpURL(gender: any GenderStoreContract = StoreValues.current.gender) -> String {
    let base = "https://www.example.com/help"
    return gender.genderCode.map { "\(base)?gender_code=\($0)" } ?? base
}
// Article "FromAPlainSingleton" snippet 6: end

// Article "FromAPlainSingleton" snippet 7: begin
import SingletonStoresTesting
import Testing

@Suite(.strictStores)  // a test that reaches a production store fails
struct HelpLinkTests {
    @Test(.stores { $0.gender = GenderStoreStub(isFemale: true, isNilGenderCode: false) })
    func carriesTheGenderCode() {
        #expect(helpURL() == "https://www.example.com/help?gender_code=2")
    }

    @Test(.stores { $0.gender = GenderStoreStub(isFemale: false, isNilGenderCode: true) })
    func leavesOutAMissingCode() {
        #expect(helpURL() == "https://www.example.com/help")
    }
}

@Test func theBoostCountsDownWithoutWaiting() async {
    let clock = ManualClock()
    let boost = BoostTimeManager(clock: clock, center: NotificationCenter())
    boost.startCountDown(duration: 90)
    await clock.advance(by: .seconds(60))  // sixty ticks, delivered before this returns
    #expect(boost.remainingSeconds == 30)
}

@Test func theGenderStubBehavesLikeTheStore() async throws {
    let parity = ContractParity<any GenderStoreContract>(
        production: {
            let profile = ProfileStore(storage: InMemoryStorage(), center: NotificationCenter())
            try profile.setGenderCode(2)
            return GenderStore(profile: profile)
        },
        stub: { GenderStoreStub(isFemale: true, isNilGenderCode: false) })
    try await parity.verify { gender in "\(gender.isMale) \(gender.isFemale) \(gender.genderCode ?? 0)" }
}
// Article "FromAPlainSingleton" snippet 7: end

@Suite struct FromAPlainSingletonArticleTests {
    @MainActor @Test func thePopupShowsWhatTheStoreShows() async {
        let clock = ManualClock()
        let center = NotificationCenter()
        let boost = BoostTimeManager(clock: clock, center: center)
        boost.startCountDown(duration: 754)
        let popup = BoostPopup()
        popup.viewDidAppear(boost: boost, center: center)
        #expect(popup.timerText == "12:34")
        await clock.advance(by: .seconds(1))
        // The tick is posted on the countdown's task and hops to the main actor.
        _ = await waitUntil { popup.timerText == "12:33" }
        #expect(popup.timerText == "12:33")
    }

    @Test func theProfileIsLockedPostedAndKept() throws {
        try withTemporaryFolder { folder in
            let center = NotificationCenter()
            let recorder = ChangeRecorder(center: center)
            let profile = ProfileStore(storage: FileStorage(folder: folder), center: center)
            try profile.setGenderCode(2)
            try profile.setGenderCode(2)
            #expect(recorder.newValues(of: .profile) == [Profile(genderCode: 2)])
            let relaunched = ProfileStore(storage: FileStorage(folder: folder), center: NotificationCenter())
            #expect(GenderStore(profile: relaunched).isFemale)
        }
    }

    @Test func theStartingPointsLinkIsTheSame() {
        let stub = PlainSingletonStart.GenderStoreStub(isFemale: true, isNilGenderCode: false)
        #expect(PlainSingletonStart().helpURL(gender: stub) == helpURL(gender: GenderStoreStub(isFemale: true, isNilGenderCode: false)))
    }
}
