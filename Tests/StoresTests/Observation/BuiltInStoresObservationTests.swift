import SingletonStoresTestSupport
import Foundation
import SingletonStoresTesting
import Stores
import Testing
import Timers

/// Every built-in store, production and stub, read as a SwiftUI view reads it: one committed
/// change, one `onChange`; a write that changes nothing, none.
@Suite struct BuiltInStoresObservationTests {
    private let center = NotificationCenter()

    @Test func profileStore() throws {
        let store = UserProfileStore(storage: InMemoryStorage(), center: center)
        let nickname = TrackedValues { store.profile.nickname }
        try store.setNickname("Aki")
        try store.setNickname("Aki")
        #expect(nickname.values == ["Aki"])
    }

    @Test func genderStoreDerivedFromTheProfile() throws {
        let profile = UserProfileStore(storage: InMemoryStorage(), center: center)
        let gender = GenderStore(profile: profile)
        let isFemale = TrackedValues { gender.isFemale }
        try profile.setGender(.female)
        try profile.setGender(.female)
        try profile.setGender(.male)
        #expect(isFemale.values == [true, false])
    }

    @Test func apiTargetStore() throws {
        let store = APITargetStore(storage: InMemoryStorage(), center: center)
        let target = TrackedValues { store.target }
        try store.select(.dev01)
        try store.select(.dev01)
        #expect(target.values == [.dev01])
    }

    @Test func purchaseManager() async throws {
        let rig = BoostTestRig()
        let purchases = PurchaseManager(storage: rig.storage, wallClock: rig.wall.wallClock, boost: rig.boost, center: rig.center)
        let items = TrackedValues { purchases.ownedBoostItems }
        try await purchases.buy(.boostItems(2))
        try purchases.useBoostItem(duration: 60)
        #expect(items.values == [2, 1])
        let flow = TrackedValues { purchases.flowState }
        purchases.acknowledge()
        purchases.acknowledge()
        #expect(flow.values == [.idle], "the second acknowledge changes nothing")
    }

    /// 90 seconds on a manual clock: 90 tick-driven `onChange`s, each reading the value the
    /// notification of the same tick carried, in order; and start, pause, resume and stop.
    @Test func boostCountdownOnAManualClock() async {
        let rig = BoostTestRig()
        let remaining = TrackedValues { rig.boost.remainingSeconds }
        rig.boost.startCountDown(duration: 90)
        #expect(remaining.values == [90], "start")
        await rig.clock.advance(by: .seconds(90))
        let ticks = Array(remaining.values.dropFirst())
        #expect(ticks.count == 90)
        #expect(ticks == Array((0..<90).reversed()))
        #expect(remaining.values == rig.ticks, "the same values as .boostTimeNotification, in order")
    }

    @Test func boostPauseResumeAndStopAreObserved() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 60)
        let paused = TrackedValues { rig.boost.isPaused }
        let inBoost = TrackedValues { rig.boost.isInBoostTime }
        rig.boost.pause()
        rig.boost.pause()
        rig.boost.resume()
        rig.boost.stopCountDown()
        #expect(paused.values == [true, false])
        #expect(inBoost.values.last == false)
        #expect(inBoost.values.count == 3, "pause, resume, stop")
    }

    @Test func scriptedBoostStubReadThroughTheRegistry() {
        let stub = BoostTimeManagerStub(script: [3, 2, 1, 0], center: center)
        withStores {
            $0.boost = stub
        } operation: {
            let remaining = TrackedValues { StoreValues.current.boost.remainingSeconds }
            stub.advance()
            stub.advance()
            stub.advance()
            #expect(remaining.values == [2, 1, 0])
        }
    }

    @Test func stubsWithIntentMethodsAreObservable() async throws {
        let profile = UserProfileStoreStub()
        let nickname = TrackedValues { profile.profile.nickname }
        profile.setNickname("Kei")
        profile.setNickname("Kei")
        #expect(nickname.values == ["Kei"])

        let purchases = PurchaseStoreStub(boostItems: 1)
        let items = TrackedValues { purchases.ownedBoostItems }
        try await purchases.buy(.boostItems(2))
        try purchases.useBoostItem(duration: 30)
        #expect(items.values == [3, 2])
    }
}
