// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The doc-comment examples of the sample flows (Sources/AutomatonExamples), verbatim between the
// markers, so that they always compile; QuickStartTests/DocCommentSnippetTests checks that they
// match. Each runs, with expectations after it; the names an example takes for granted are
// declared before it.
import Automaton
import AutomatonExamples
import SingletonStoresTestSupport
import Testing
import Timers

@Suite(.hangLimit) struct AutomatonExamplesDocCommentTests {
    @Test func loginFlow() async throws {
// Doc "AutomatonExamples/Login/LoginFlow.swift" snippet 1: begin
let clock = ManualClock()
let automaton = LoginFlow.makeAutomaton(clock: clock)
let login = await automaton.send(.login)            // .loggingIn
try await clock.waitForSleepers(1)                   // the login effect waits for the server
await clock.advance(by: LoginFlow.defaultLoginDuration)
await login.wait(includingFollowUps: true)
let state = await automaton.state                    // .loggedIn
// Doc "AutomatonExamples/Login/LoginFlow.swift" snippet 1: end
        #expect(login.reply == .success(input: .login, from: .loggedOut, to: .loggingIn))
        #expect(state == .loggedIn)
    }

    @Test func registrationEvent() throws {
        var flow = try RegistrationFlow.makeAutomaton()
        flow.send(.showRegisterRoot)
// Doc "AutomatonExamples/Registration/RegistrationEvent.swift" snippet 1: begin
let edge = Transition<RegistrationState, RegistrationEvent.Kind>(
    from: .registerRoot, to: .profileRegister, by: .registerWithFacebook)  // one edge of the table
flow.send(.registerWithFacebook(profile: FacebookProfile(id: "42", name: "Minh")))  // takes it
// Doc "AutomatonExamples/Registration/RegistrationEvent.swift" snippet 1: end
        #expect(RegistrationFlow.transitions.contains(edge))
        #expect(flow.state == .profileRegister)
    }

    @Test func registrationFlowReplay() throws {
// Doc "AutomatonExamples/Registration/RegistrationFlow.swift" snippet 1: begin
let table = try RegistrationFlow.makeTable()
let replay = table.replay(RegistrationFlow.routes["email-sign-up"] ?? [], from: RegistrationFlow.initialState)
#expect(replay.state == .home)
// Doc "AutomatonExamples/Registration/RegistrationFlow.swift" snippet 1: end
        #expect(replay.isComplete)
    }

    @Test func registrationFlowMealyMachine() throws {
// Doc "AutomatonExamples/Registration/RegistrationFlow.swift" snippet 2: begin
var machine = try RegistrationFlow.makeMealyMachine()
let screen = machine.send(.showRegisterRoot).output // RegisterRootScreen
// Doc "AutomatonExamples/Registration/RegistrationFlow.swift" snippet 2: end
        #expect(screen?.description == "RegisterRootScreen")
        #expect(machine.state == .registerRoot)
    }

    @Test func registrationScreen() throws {
        var shown: [String] = []
        func show(_ screen: any RegistrationScreen) { shown.append(screen.description) }
        var flow = try RegistrationFlow.makeAutomaton()
        flow.send(.showRegisterRoot)
        flow.send(.registerWithEmail)
        flow.send(.showProfileRegister(email: "minh@example.com"))
// Doc "AutomatonExamples/Registration/RegistrationScreen.swift" snippet 1: begin
let reply = flow.send(.confirmSMS(phoneNumber: "090-1234-5678"))
if case .success(let event, _, _) = reply {
    show(RegistrationFlow.screen(for: event)) // ConfirmSMSScreen for 090-1234-5678
}
// Doc "AutomatonExamples/Registration/RegistrationScreen.swift" snippet 1: end
        #expect(shown == ["ConfirmSMSScreen(090-1234-5678)"])
    }

    @Test func registrationState() throws {
// Doc "AutomatonExamples/Registration/RegistrationState.swift" snippet 1: begin
let flow = try RegistrationFlow.makeAutomaton()
let state = flow.state // .root
// Doc "AutomatonExamples/Registration/RegistrationState.swift" snippet 1: end
        #expect(state == .root)
        #expect(flow.initial == RegistrationFlow.initialState)
    }

    @Test func mercariAccountDependency() {
        let resource = MercariIDResource(userID: 7, nickname: "orakaro")
        let token = "sample-token"
// Doc "AutomatonExamples/Registration/Screens/MercariAccountDependency.swift" snippet 1: begin
let screen = AtteLoginScreen.make(withDependency: .init(resource: resource, token: token))
// Doc "AutomatonExamples/Registration/Screens/MercariAccountDependency.swift" snippet 1: end
        #expect(screen.dependency == MercariAccountDependency(resource: resource, token: token))
        #expect(screen.description == "AtteLoginScreen(orakaro)")
    }
}
