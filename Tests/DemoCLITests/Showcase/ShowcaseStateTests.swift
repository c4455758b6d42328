import Testing
@testable import demo_cli

@Suite("ShowcaseState")
struct ShowcaseStateTests {
    /// The shared showcase's two paths: the main screen moves only on the store's posts, the
    /// popup only on Observation's reports — so the popup is driven by Observation alone.
    @Test func postsMoveTheMainScreenAndObservationMovesThePopup() {
        var state = ShowcaseState(mode: .shared, boostSeconds: 10)
        state.apply(.storeTick(10))
        state.apply(.observedTick(10))
        #expect(state.main == .showing(10) && state.popup == .notOpen)
        state.apply(.popupOpened(10))
        state.apply(.observedTick(9))
        #expect(state.main == .showing(10) && state.popup == .showing(9))
        state.apply(.storeTick(9))
        #expect(state.main == .showing(9) && state.popup == .showing(9))
        state.apply(.storeTick(8))
        #expect(state.popup == .showing(9), "a post does not move the popup")
        #expect(state.screensDisagree)
    }

    @Test func ownTimersMoveOneScreenAtATime() {
        var state = ShowcaseState(mode: .naive, boostSeconds: 10)
        state.apply(.mainTick(10))
        state.apply(.popupOpened(10))
        state.apply(.mainTick(9))
        #expect(state.main == .showing(9) && state.popup == .showing(10))
        #expect(state.screensDisagree)
        state.apply(.popupTick(9))
        #expect(!state.screensDisagree)
    }

    @Test func aClosedPopupIgnoresTicksAndEndsTheShowcase() {
        var state = ShowcaseState(mode: .shared, boostSeconds: 1)
        state.apply(.storeTick(0))
        #expect(!state.isFinished)
        state.apply(.popupClosed)
        state.apply(.storeTick(0))
        state.apply(.popupTick(5))
        #expect(state.popup == .closed)
        #expect(state.isFinished)
        #expect(!state.screensDisagree)
    }

    @Test func aPopupThatIsNotOpenIgnoresItsTimer() {
        var state = ShowcaseState(mode: .naive, boostSeconds: 3)
        state.apply(.popupTick(2))
        #expect(state.popup == .notOpen)
    }
}
