// The README's "Testing" example, verbatim between the markers, so that it always compiles and
// runs as part of the suite. QuickStartTests checks that README.md and this file agree.

// README testing: begin
import Foundation
import SingletonStoresTesting  // test targets only
import Stores
import Testing
import Timers

func boostBadge(boost: any BoostTimeManagerContract = StoreValues.current.boost) -> String {
    boost.isInBoostTime ? "Boost \(boost.remainingSeconds.formatted(.countdown))" : "No boost"
}

@Suite(.strictStores)  // reading a production store fails the test: nothing touches real data
struct BoostBadgeTests {
    @Test(.stores { $0.boost = BoostTimeManagerStub(remainingSeconds: 754) })
    func showsTheTimeLeft() {
        #expect(boostBadge() == "Boost 12:34")
    }

    @Test(.stubbedStores)  // every store reads its stub
    func showsNoBoostByDefault() {
        #expect(boostBadge() == "No boost")
    }

    @Test func renamingPostsExactlyOneChange() throws {
        let center = NotificationCenter()
        let profile = UserProfileStore(storage: InMemoryStorage(), center: center)
        try expectChanges(on: center, [  // fails on a missing, unexpected or reordered change
            RecordedChange(.userProfile, StoreChange(old: UserProfile(), new: UserProfile(nickname: "Aki"))),
        ]) {
            try profile.setNickname("Aki")
            try profile.setNickname("Aki")  // unchanged: posts nothing
        }
    }
}
// README testing: end
