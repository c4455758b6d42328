// The README's SwiftUI example, verbatim between the markers. SwiftUI is not on Linux, so the
// view compiles only where SwiftUI exists; the test below runs the same reads the view's `body`
// makes, under `withObservationTracking` as SwiftUI does. QuickStartTests checks that README.md
// and this file agree.
import SingletonStoresTestSupport
import Stores
import Testing
import Timers

#if canImport(SwiftUI)
// README SwiftUI: begin
import SwiftUI
import Stores
import Timers

struct BoostBadge: View {
    var boost: any BoostTimeManagerContract = StoreValues.current.boost  // production or a stub
    var body: some View {  // reads the store, so SwiftUI redraws it on every change: nothing to subscribe
        Text(boost.isInBoostTime ? boost.remainingSeconds.formatted(.countdown) : "No boost")
    }
}
// README SwiftUI: end
#endif

@Suite struct ReadmeSwiftUITests {
    /// The badge's `body`, without SwiftUI: the same reads, tracked the way SwiftUI tracks them.
    private static func badgeText(_ boost: any BoostTimeManagerContract) -> String {
        boost.isInBoostTime ? boost.remainingSeconds.formatted(.countdown) : "No boost"
    }

    @Test func theBadgesReadsAreRedrawnOnEveryChangeOfAStub() {
        let stub = BoostTimeManagerStub(script: [754, 753, 0])
        withStores { $0.boost = stub } operation: {
            let boost = StoreValues.current.boost
            let shown = TrackedValues { Self.badgeText(boost) }
            stub.advance()
            stub.advance()
            #expect(shown.values == ["12:33", "No boost"])
        }
    }

    @Test func theBadgesReadsFollowTheProductionCountdown() async {
        let rig = BoostTestRig()
        let shown = TrackedValues { Self.badgeText(rig.boost) }
        rig.boost.startCountDown(duration: 3)
        await rig.clock.advance(by: .seconds(3))
        #expect(shown.values == ["00:03", "00:02", "00:01", "No boost"])
    }
}
