import Automaton
import AutomatonExamples
import Testing

@Suite struct TransitionAnalysisTests {
    enum Door: String, Hashable, Sendable, CaseIterable {
        case closed, open, locked, jammed, broken
    }

    enum Action: String, Hashable, Sendable, CaseIterable, TransitionEvent {
        case open, close, lock, unlock, kick
    }

    /// `broken` has an edge out but none in (unreachable), `jammed` has no way out (dead end),
    /// `closed --open-->` is listed twice (duplicate).
    static let planted: [Transition<Door, Action>] = [
        Transition(from: .closed, to: .open, by: .open),
        Transition(from: .open, to: .closed, by: .close),
        Transition(from: .closed, to: .locked, by: .lock),
        Transition(from: .locked, to: .closed, by: .unlock),
        Transition(from: .closed, to: .jammed, by: .kick),
        Transition(from: .broken, to: .closed, by: .kick),
        Transition(from: .closed, to: .locked, by: .open),
    ]

    @Test func findsPlantedUnreachableStateDeadEndDuplicateAndUnhandledPair() {
        let analysis = TransitionAnalysis(transitions: Self.planted, initial: Door.closed)
        #expect(analysis.unreachableStates == [.broken])
        #expect(analysis.deadEnds == [.jammed])
        #expect(analysis.duplicateEdges == [Transition(from: .closed, to: .locked, by: .open)])
        #expect(analysis.unhandledPairs.contains(.init(state: .open, kind: .lock)))
        #expect(!analysis.isClean)
    }

    @Test func unhandledPairsCoverEveryReachableNonFinalState() {
        let analysis = TransitionAnalysis(transitions: Self.planted, initial: Door.closed, finalStates: [.jammed])
        #expect(analysis.deadEnds.isEmpty)
        // closed handles open/lock/kick; open handles close; locked handles unlock.
        #expect(
            analysis.unhandledPairs == [
                .init(state: .closed, kind: .close), .init(state: .closed, kind: .unlock),
                .init(state: .open, kind: .open), .init(state: .open, kind: .lock),
                .init(state: .open, kind: .unlock), .init(state: .open, kind: .kick),
                .init(state: .locked, kind: .open), .init(state: .locked, kind: .close),
                .init(state: .locked, kind: .lock), .init(state: .locked, kind: .kick),
            ])
    }

    @Test func stateNoEdgeMentionsIsUnreachableWhenAllStatesAreGiven() {
        let analysis = TransitionAnalysis(
            transitions: [Transition(from: Door.closed, to: .open, by: Action.open)],
            initial: .closed,
            finalStates: [.open],
            states: [.closed, .open, .locked],
            kinds: nil
        )
        #expect(analysis.unreachableStates == [.locked])
        #expect(analysis.unhandledPairs.isEmpty)
    }

    @Test func cleanFlowIsClean() throws {
        let analysis = try LoginFlow.makeTable().analysis(initial: .loggedOut)
        #expect(analysis.isClean)
        #expect(analysis.unhandledPairs.count == 4 * 5 - LoginFlow.transitions.count)
    }

    @Test func shortestPathFindsFewestEvents() throws {
        let table = try RegistrationFlow.makeTable()
        #expect(table.shortestPath(from: .root, to: .home) == [.showRegisterRoot, .loginAndShowHome])
        #expect(
            table.shortestPath(from: .root, to: .passcode) == [
                .showRegisterRoot, .registerWithFacebook, .confirmSMS, .sendSMSConfirmationNumber,
            ])
        #expect(table.shortestPath(from: .home, to: .home) == [])
        #expect(table.shortestPath(from: .home, to: .root) == nil)
    }

    @Test func shortestPathReplaysToItsGoal() throws {
        let table = try LoginFlow.makeTable()
        let path = try #require(table.shortestPath(from: .loggedOut, to: .loggingOut))
        #expect(table.replay(path, from: .loggedOut).state == .loggingOut)
    }
}
