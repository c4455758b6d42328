import Automaton
import AutomatonExamples
import Testing

@Suite struct FiniteAutomatonTests {
    @Test func startsInTheInitialState() throws {
        let flow = try FiniteAutomaton<LoginState, LoginInput>(initial: .loggedIn, transitions: LoginFlow.transitions)
        #expect(flow.state == .loggedIn)
        #expect(flow.initial == .loggedIn)
    }

    @Test func sendMovesAndReplies() throws {
        var flow = try RegistrationFlow.makeAutomaton()
        let reply = flow.send(.showRegisterRoot)
        #expect(reply == .success(input: .showRegisterRoot, from: .root, to: .registerRoot))
        #expect(flow.state == .registerRoot)
    }

    @Test func undefinedInputIsAFailureThatChangesNothing() throws {
        var flow = try RegistrationFlow.makeAutomaton()
        flow.send(.showRegisterRoot)
        let event = RegistrationEvent.sendSMSConfirmationNumber(phoneNumber: "090")
        let reply = flow.send(event)
        #expect(reply == .failure(input: event, from: .registerRoot))
        #expect(flow.state == .registerRoot)
    }

    @Test func replayStopsAtFirstRejection() throws {
        var flow = try RegistrationFlow.makeAutomaton()
        let replay = flow.replay([.showRegisterRoot, .resetPassword, .loginWithEmail])
        #expect(replay.replies.count == 2)
        #expect(replay.rejected == .failure(input: .resetPassword, from: .registerRoot))
        #expect(!replay.isComplete)
        #expect(flow.state == .registerRoot)
        #expect(replay.path == [.root, .registerRoot])
    }

    @Test func resetReturnsToInitial() throws {
        var flow = try RegistrationFlow.makeAutomaton()
        flow.send(.showRegisterRoot)
        flow.reset()
        #expect(flow.state == .root)
    }
}
