import Foundation
import SingletonStoresTestSupport
import Stores
import Testing

/// A screen written against a contract follows whichever store it is given through
/// NotificationCenter: it observes the store's channel on the contract's `center`, so a stub
/// redraws it as the production store does. (Observing `.default`, as a screen had to before,
/// it never heard a stub, whose center is its own.)
@Suite struct ContractCenterTests {
    /// A screen that shows the nickname and redraws on every change of the profile.
    private static func nicknameScreen(
        _ profile: any UserProfileStoreContract, redraws: Recorder<String>
    ) -> ObservationToken {
        NotificationChannel.userProfile.observe(center: profile.center) { redraws.append($0.new.nickname) }
    }

    @Test func aScreenFollowsAProfileStubOnTheContractsCenter() throws {
        let stub = UserProfileStoreStub()
        let redraws = Recorder<String>()
        let token = Self.nicknameScreen(stub, redraws: redraws)
        stub.setNickname("Aki")
        stub.setNickname("Aki")
        #expect(redraws.values == ["Aki"], "one change, one redraw")
        #expect(stub.center !== NotificationCenter.default, "the stub posts on a center of its own")
        token.cancel()
    }

    @Test func aStubTakesTheCenterItIsGiven() {
        let center = NotificationCenter()
        #expect(UserProfileStoreStub(center: center).center === center)
        #expect(PurchaseStoreStub(center: center).center === center)
        #expect(BoostTimeManagerStub(remainingSeconds: 0, center: center).center === center)
    }

    @Test func aScreenFollowsTheProductionProfileOnTheSameCenter() throws {
        let center = NotificationCenter()
        let store = UserProfileStore(storage: InMemoryStorage(), center: center)
        #expect(store.center === center)
        let redraws = Recorder<String>()
        let token = Self.nicknameScreen(store, redraws: redraws)
        try store.setNickname("Aki")
        #expect(redraws.values == ["Aki"])
        token.cancel()
    }

    @Test func theGenderFollowsItsProfilesCenter() throws {
        let profile = UserProfileStoreStub()
        let gender: any GenderStoreContract = GenderStore(profile: profile)
        #expect(gender.center === profile.center)
        let redraws = Recorder<Bool>()
        let token = NotificationChannel.userProfile.observe(center: gender.center) { _ in redraws.append(gender.isFemale) }
        profile.setGender(.female)
        #expect(redraws.values == [true])
        token.cancel()
    }

    @Test func aScreenFollowsABoostStubOnTheContractsCenter() {
        let stub = BoostTimeManagerStub(script: [3, 2, 1, 0], center: NotificationCenter())
        let boost: any BoostTimeManagerContract = stub
        let redraws = Recorder<Int>()
        let token = NotificationChannel.boostTime.observe(center: boost.center) { redraws.append($0) }
        stub.advance()
        stub.advance()
        #expect(redraws.values == [2, 1])
        token.cancel()
    }

    @Test func aScreenFollowsThePurchaseFlowOfAStub() async throws {
        let purchases: any PurchaseStoreContract = PurchaseStoreStub(boostItems: 0)
        let redraws = Recorder<PurchaseFlowState>()
        let token = NotificationChannel.purchaseFlow.observe(center: purchases.center) { redraws.append($0.new) }
        try await purchases.buy(.boostItems(2))
        #expect(redraws.values == [.purchased(.boostItems(2))])
        token.cancel()
    }

    @Test func theProductionStoresSayWhereTheyPost() {
        let center = NotificationCenter()
        let storage = InMemoryStorage()
        #expect(APITargetStore(storage: storage, center: center).center === center)
        #expect(PurchaseManager(storage: storage, center: center, watching: .off).center === center)
        #expect(BoostTimeManager(storage: storage, center: center, watching: .off).center === center)
        let stub: any APITargetStoreContract = APITargetStoreStub(target: .production)
        #expect(stub.center === NotificationCenter.default, "a stub that never posts keeps the default")
    }
}
