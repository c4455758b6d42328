import Automaton
import AutomatonExamples
import Testing

@Suite struct RegistrationFlowTests {
    @Test(arguments: RegistrationFlow.routeNames)
    func everyRouteReachesHomeThroughTheTable(route: String) throws {
        let events = try #require(RegistrationFlow.routes[route])
        var flow = try RegistrationFlow.makeAutomaton()
        let replay = flow.replay(events)
        #expect(replay.isComplete, "rejected: \(String(describing: replay.rejected))")
        #expect(replay.replies.count == events.count)
        #expect(flow.state == .home)
    }

    @Test(arguments: RegistrationFlow.routeNames)
    func everyRouteReachesHomeThroughTheMealyMachine(route: String) throws {
        let events = try #require(RegistrationFlow.routes[route])
        var machine = try RegistrationFlow.makeMealyMachine()
        let replies = machine.replay(events)
        #expect(replies.count == events.count)
        #expect(replies.allSatisfy { $0.output != nil })
        #expect(machine.state == .home)
        #expect(replies.last?.output?.state == .home)
    }

    @Test func emailSignUpGoesThroughSMSConfirmationToHome() throws {
        let table = try RegistrationFlow.makeTable()
        let replay = table.replay(try #require(RegistrationFlow.routes["email-sign-up"]), from: .root)
        #expect(replay.path == [.root, .registerRoot, .emailSignUp, .profileRegister, .confirmSMS, .home])
    }

    @Test func mercariUserWithoutSMSConfirmationRegisters() throws {
        let table = try RegistrationFlow.makeTable()
        let replay = table.replay(try #require(RegistrationFlow.routes["mercari-sms"]), from: .root)
        #expect(replay.path == [.root, .registerRoot, .startWithMercari, .profileRegister, .confirmSMS, .passcode, .home])
    }

    @Test func mealyOutputIsTheNextScreenBuiltFromThePayload() throws {
        var machine = try RegistrationFlow.makeMealyMachine()
        machine.send(.showRegisterRoot)
        let profile = FacebookProfile(id: "9", name: "Ai")
        let reply = machine.send(.registerWithFacebook(profile: profile))
        let screen = try #require(reply.output as? ProfileRegisterScreen)
        #expect(screen.dependency == .facebook(profile))
        #expect(
            reply.transition
                == .success(input: .registerWithFacebook(profile: profile), from: .registerRoot, to: .profileRegister))
    }

    @Test func mealyRejectionKeepsStateAndBuildsNothing() throws {
        var machine = try RegistrationFlow.makeMealyMachine()
        let event = RegistrationEvent.loginAndShowHome(token: "t", userID: 1)
        let reply = machine.send(event)
        #expect(reply.output == nil)
        #expect(reply.transition == .failure(input: event, from: .root))
        #expect(machine.state == .root)
        #expect(machine.transition(from: .root, by: event) == nil)
    }

    @Test func homeScreenGetsTokenAndUser() throws {
        let screen = try #require(
            RegistrationFlow.screen(for: .loginAndShowHome(token: "abc", userID: 5)) as? HomeScreen
        )
        #expect(screen.dependency == .init(token: "abc", userID: 5))
        #expect(screen.state == .home)
    }

    @Test func everyKindEntersTheStateOfItsScreen() throws {
        let table = try RegistrationFlow.makeTable()
        for edge in table.transitions {
            let event = try #require(RegistrationFlowTests.sampleEvent(edge.by))
            #expect(RegistrationFlow.screen(for: event).state == edge.to, "\(edge)")
        }
    }

    @Test func flowHasNoUnreachableStateDeadEndOrDuplicate() throws {
        let analysis = try RegistrationFlow.makeTable().analysis(initial: .root, finalStates: [.home])
        #expect(analysis.isClean)
    }

    static func sampleEvent(_ kind: RegistrationEvent.Kind) -> RegistrationEvent? {
        RegistrationFlow.routes.values.joined().first { $0.kind == kind }
    }
}
