import Automaton
import Testing

@Suite struct StateMonadTests {
    static let tick = StateMonad<Int, String> { count in (count + 1, "tick \(count)") }

    @Test func runReturnsStateAndValue() {
        let result = Self.tick.run(5)
        #expect(result.state == 6)
        #expect(result.value == "tick 5")
    }

    @Test func mapTransformsValueOnly() {
        let result = Self.tick.map(\.count).run(0)
        #expect(result.state == 1)
        #expect(result.value == 6)
    }

    @Test func flatMapThreadsTheState() {
        let twice = Self.tick.flatMap { first in Self.tick.map { second in [first, second] } }
        let result = twice.run(0)
        #expect(result.state == 2)
        #expect(result.value == ["tick 0", "tick 1"])
    }

    @Test func getPutModifyPure() {
        let program = StateMonad<Int, Int>.get
            .flatMap { value in StateMonad<Int, Void>.put(value * 10) }
            .flatMap { StateMonad<Int, Void>.modify { $0 + 1 } }
            .flatMap { StateMonad<Int, String>.pure("done") }
        let result = program.run(4)
        #expect(result.state == 41)
        #expect(result.value == "done")
    }

    @Test func acceptingBuildsOutputOnlyWhenAccepted() {
        let built = Counter()
        let step = StateMonad<Int, String?>.accepting({ $0 < 2 ? $0 + 1 : nil }) { from, to in
            built.increment()
            return "\(from)->\(to)"
        }
        #expect(step.run(0).value == "0->1")
        #expect(step.run(5).value == nil)
        #expect(step.run(5).state == 5)
        #expect(built.value == 1)
    }
}
