import Automaton
import Testing

@Suite struct MealyMachineTests {
    /// Seed 000's binary-gap automaton: the longest run of zeros closed by ones.
    struct Gap: Sendable, Equatable {
        var started = false
        var current = 0
        var longest = 0
    }

    static let binaryGap = MealyMachine<Gap, Bool, Int>(initial: Gap()) { bit in
        StateMonad { gap in
            var next = gap
            if bit {
                if next.started { next.longest = max(next.longest, next.current) }
                next.started = true
                next.current = 0
            } else if next.started {
                next.current += 1
            }
            return (next, next.longest)
        }
    }

    @Test func binaryGapOfNineIsTwo() {
        var machine = Self.binaryGap
        let outputs = machine.replay([true, false, false, true]).compactMap(\.output)
        #expect(outputs.last == 2)
        #expect(machine.state.longest == 2)
    }

    @Test func binaryGapIgnoresTrailingZeros() {
        var machine = Self.binaryGap
        machine.replay([true, false, true, false, false, false])
        #expect(machine.state.longest == 1)
    }

    @Test func rejectionDiscardsTheReturnedState() {
        // A transition that returns a different state with a nil output is still a rejection.
        var machine = MealyMachine<Int, String, String>(initial: 0) { _ in StateMonad { _ in (99, nil) } }
        let reply = machine.send("x")
        #expect(reply.transition == .failure(input: "x", from: 0))
        #expect(machine.state == 0)
    }

    @Test func replayStopsAtFirstRejection() {
        var machine = MealyMachine<Int, Int, Int>(initial: 0) { step in
            .accepting({ $0 + step <= 3 ? $0 + step : nil }, output: { _, to in to })
        }
        let replies = machine.replay([1, 1, 5, 1])
        #expect(replies.map(\.output) == [1, 2, nil])
        #expect(machine.state == 2)
        machine.reset()
        #expect(machine.state == 0)
    }
}
