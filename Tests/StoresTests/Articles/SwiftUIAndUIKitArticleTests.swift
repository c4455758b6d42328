// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "SwiftUI and UIKit" (Sources/SingletonStores/SingletonStores.docc),
// verbatim between the markers, so that it always compiles. SwiftUI is not on Linux, so the
// view compiles only where SwiftUI exists; the first test runs the reads its `body` makes, under
// Swift Observation as SwiftUI does. The rest compiles everywhere and runs below, each test with
// stores and a notification center of its own.
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.
import SingletonStoresTestSupport
import Testing

#if canImport(SwiftUI)
// Article "SwiftUIAndUIKit" snippet 1: begin
import SwiftUI
import Stores
import Timers

struct BoostButtonLabel: View {
    var boost: any BoostTimeManagerContract = StoreValues.current.boost
    var profile: any UserProfileStoreContract = StoreValues.current.profile

    var body: some View {  // reads both stores: redrawn on each change of either
        VStack {
            Text(profile.profile.nickname)
            Text(boost.isInBoostTime ? boost.remainingSeconds.formatted(.countdown) : "Boost")
        }
    }
}

// The built-in stubs are observable too, so a preview behaves like the app; so is a stub of
// your own that keeps its state in a StoreStub.
@MainActor func boostButtonPreview() -> some View {
    BoostButtonLabel(
        boost: BoostTimeManagerStub(remainingSeconds: 754),
        profile: UserProfileStoreStub(UserProfile(nickname: "Aki")))
}
// Article "SwiftUIAndUIKit" snippet 1: end
#endif

// Article "SwiftUIAndUIKit" snippet 2: begin
import Foundation
import Stores
import Timers

@MainActor final class BoostPopupViewController {  // a UIViewController in your app
    private(set) var timerText = ""  // the text of a UILabel
    private(set) var isShown = true
    private var tokens: [ObservationToken] = []
    private let boost: any BoostTimeManagerContract
    private let center: NotificationCenter

    init(boost: any BoostTimeManagerContract = StoreValues.current.boost, center: NotificationCenter = .default) {
        self.boost = boost
        self.center = center
    }

    func viewDidLoad() {
        show(boost.remainingSeconds)  // the current value first…
        NotificationChannel.boostTime.observeOnMainActor(center: center) { [weak self] seconds in
            self?.show(seconds)  // …then every change, on the main actor
        }.store(in: &tokens)
        NotificationChannel.boostEnded.observeOnMainActor(center: center) { [weak self] _ in
            self?.isShown = false  // dismiss the popup when the boost ends
        }.store(in: &tokens)
    }

    private func show(_ seconds: Int) { timerText = seconds.formatted(.countdown) }
}
// Article "SwiftUIAndUIKit" snippet 2: end

func swiftUIArticleClassicObserver() -> any NSObjectProtocol {
    // Article "SwiftUIAndUIKit" snippet 3: begin
let observer = NotificationCenter.default.addObserver(
    forName: .boostTimeNotification, object: nil, queue: nil
) { notification in
    let seconds = notification.object as? Int ?? 0
    print(seconds.formatted(.countdown))
}
    // Article "SwiftUIAndUIKit" snippet 3: end
    return observer
}

// Article "SwiftUIAndUIKit" snippet 4: begin
@MainActor final class NicknameTitle {
    private(set) var text = ""
    private var task: Task<Void, Never>?

    func start(center: NotificationCenter = .default) {
        let changes = NotificationChannel.userProfile.values(center: center)  // observing from now on
        task = Task { @MainActor [weak self] in
            for await change in changes {
                self?.text = change.new.nickname
            }
        }
    }

    func stop() { task?.cancel() }  // ends the loop and removes the observer
}
// Article "SwiftUIAndUIKit" snippet 4: end

// Article "SwiftUIAndUIKit" snippet 5: begin
import Observation

@MainActor func trackNickname(
    of profile: any UserProfileStoreContract, show: @escaping @MainActor @Sendable (String) -> Void
) {
    show(withObservationTracking {
        profile.profile.nickname  // registers a dependency on the store
    } onChange: {
        Task { @MainActor in trackNickname(of: profile, show: show) }
    })
}
// Article "SwiftUIAndUIKit" snippet 5: end

@Suite struct SwiftUIAndUIKitArticleTests {
    /// What `BoostButtonLabel.body` reads.
    private static func label(_ boost: any BoostTimeManagerContract, _ profile: any UserProfileStoreContract) -> [String] {
        [profile.profile.nickname, boost.isInBoostTime ? boost.remainingSeconds.formatted(.countdown) : "Boost"]
    }

    @Test func theViewsReadsAreRedrawnOnEveryChangeOfEitherStore() {
        let boost = BoostTimeManagerStub(script: [754, 753], center: NotificationCenter())
        let profile = UserProfileStoreStub(UserProfile(nickname: "Aki"))
        let shown = TrackedValues { Self.label(boost, profile) }
        boost.advance()
        profile.setNickname("Mei")
        profile.setNickname("Mei")  // unchanged: no redraw
        #expect(shown.values == [["Aki", "12:33"], ["Mei", "12:33"]])
    }

    @MainActor @Test func thePopupFollowsTheBoostAndClosesAtItsEnd() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 2)
        let popup = BoostPopupViewController(boost: rig.boost, center: rig.center)
        popup.viewDidLoad()
        #expect(popup.timerText == "00:02")
        await rig.clock.advance(by: .seconds(1))
        await Self.waitOnMainActor { popup.timerText == "00:01" }
        #expect(popup.timerText == "00:01")
        await rig.clock.advance(by: .seconds(1))
        await Self.waitOnMainActor { !popup.isShown }
        #expect(!popup.isShown)
    }

    @Test func classicObserversStillWork() {
        let observer = swiftUIArticleClassicObserver()
        NotificationCenter.default.removeObserver(observer)
    }

    @MainActor @Test func theTitleFollowsTheProfileOnTheMainActor() async throws {
        let center = NotificationCenter()
        let profile = UserProfileStore(storage: InMemoryStorage(), center: center)
        let title = NicknameTitle()
        title.start(center: center)
        try profile.setNickname("Aki")  // posted at once: the stream was made in start
        await Self.waitOnMainActor { title.text == "Aki" }
        #expect(title.text == "Aki")
        title.stop()
    }

    @MainActor @Test func trackingFollowsEveryChange() async {
        let profile = UserProfileStoreStub(UserProfile(nickname: "Aki"))
        let shown = Recorder<String>()
        trackNickname(of: profile) { shown.append($0) }
        profile.setNickname("Mei")
        await Self.waitOnMainActor { shown.values.last == "Mei" }
        profile.setNickname("Sora")
        await Self.waitOnMainActor { shown.values.last == "Sora" }
        #expect(shown.values == ["Aki", "Mei", "Sora"])
    }

    /// Gives the main actor to queued work until `condition` holds (a bound, not a timing rule).
    @MainActor private static func waitOnMainActor(_ condition: () -> Bool) async {
        _ = await waitUntil(condition)
    }
}
