import Automaton
import AutomatonExamples
import Testing

@Suite struct TransitionTableTests {
    @Test func routesByCaseNotPayload() throws {
        let table = try RegistrationFlow.makeTable()
        let alice = FacebookProfile(id: "1", name: "Alice")
        let bob = FacebookProfile(id: "2", name: "Bob")
        #expect(table.transition(from: .registerRoot, by: .registerWithFacebook(profile: alice)) == .profileRegister)
        #expect(table.transition(from: .registerRoot, by: .registerWithFacebook(profile: bob)) == .profileRegister)
        #expect(table.transition(from: .root, by: .registerWithFacebook(profile: alice)) == nil)
    }

    @Test func duplicatePairIsAnErrorAtConstruction() {
        let transitions: [Transition<LoginState, LoginInput>] = [
            Transition(from: .loggedOut, to: .loggingIn, by: .login),
            Transition(from: .loggedOut, to: .loggedIn, by: .login),
        ]
        #expect(throws: TransitionTableError.duplicateTransition(first: transitions[0], duplicate: transitions[1])) {
            try TransitionTable<LoginState, LoginInput>(transitions)
        }
    }

    @Test func duplicateErrorMessageSaysWhatToDo() {
        let edge = Transition(from: LoginState.loggedOut, to: .loggingIn, by: LoginInput.login)
        let other = Transition(from: LoginState.loggedOut, to: .loggedIn, by: LoginInput.login)
        let same = TransitionTableError.duplicateTransition(first: edge, duplicate: edge).description
        let conflicting = TransitionTableError.duplicateTransition(first: edge, duplicate: other).description
        #expect(same.contains("listed twice"))
        #expect(conflicting.contains("loggedOut --login--> loggingIn"))
        #expect(conflicting.contains("loggedOut --login--> loggedIn"))
        #expect(conflicting.contains("remove one entry"))
    }

    @Test func statesInOrderOfFirstAppearance() throws {
        let table = try TransitionTable<LoginState, LoginInput>(LoginFlow.transitions)
        #expect(table.states == [.loggedOut, .loggingIn, .loggedIn, .loggingOut])
        #expect(table.transitions(from: .loggingIn).map(\.by) == [.loginOK, .forceLogout])
    }

    @Test func replyCarriesThePayload() throws {
        let table = try RegistrationFlow.makeTable()
        let event = RegistrationEvent.confirmSMS(phoneNumber: "080-0000-0000")
        let reply = table.reply(to: event, in: .profileRegister)
        #expect(reply == .success(input: event, from: .profileRegister, to: .confirmSMS))
        #expect(reply.input == event)
        #expect(reply.isSuccess)
        #expect(table.reply(to: event, in: .home) == .failure(input: event, from: .home))
        #expect(table.reply(to: event, in: .home).to == nil)
    }
}
