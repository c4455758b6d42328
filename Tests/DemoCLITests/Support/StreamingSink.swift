import SingletonStoresTestSupport
import Testing
import Timers
@testable import demo_cli

/// A sink that hands every drawn state to the test, in order, as it is drawn.
struct StreamingSink: ShowcaseSink {
    let continuation: AsyncStream<ShowcaseState>.Continuation

    mutating func draw(_ state: ShowcaseState) { continuation.yield(state) }

    mutating func finish(_ state: ShowcaseState) {
        continuation.yield(state)
        continuation.finish()
    }
}

/// The screens of a state as `(main, popup)` text, for compact expectations.
func screens(_ state: ShowcaseState?) -> String {
    guard let state else { return "none" }
    return "\(ShowcaseRenderer.text(state.main))|\(ShowcaseRenderer.text(state.popup))"
}
