import Automaton
import AutomatonExamples
import Testing

@Suite struct DiagramExportTests {
    @Test func registrationFlowMermaid() throws {
        let expected = """
            stateDiagram-v2
                [*] --> root
                root --> registerRoot : showRegisterRoot
                registerRoot --> profileRegister : registerWithFacebook
                registerRoot --> startWithMercari : startWithMercari
                registerRoot --> emailLogin : loginWithEmail
                registerRoot --> atteLogin : loginWithAtte
                registerRoot --> emailSignUp : registerWithEmail
                registerRoot --> home : loginAndShowHome
                startWithMercari --> profileRegister : registerWithMercariResource
                startWithMercari --> atteLogin : loginWithAtte
                emailSignUp --> profileRegister : showProfileRegister
                emailSignUp --> profileRegister : registerWithFacebook
                emailLogin --> profileRegister : registerWithFacebook
                emailLogin --> startWithMercari : startWithMercari
                emailLogin --> atteLogin : loginWithAtte
                emailLogin --> resetPassword : resetPassword
                emailLogin --> home : loginAndShowHome
                resetPassword --> emailLogin : finishPasswordReset
                profileRegister --> confirmSMS : confirmSMS
                confirmSMS --> passcode : sendSMSConfirmationNumber
                confirmSMS --> home : loginAndShowHome
                passcode --> home : loginAndShowHome
                atteLogin --> home : loginAndShowHome
                home --> [*]

            """
        #expect(try RegistrationFlow.mermaid() == expected)
    }

    @Test func loginFlowDOT() throws {
        let dot = try LoginFlow.makeTable().dot(name: "Login", initial: .loggedOut, finalStates: [.loggedIn])
        #expect(
            dot == """
                digraph "Login" {
                    rankdir=LR;
                    "__start" [shape=point];
                    "__start" -> "loggedOut";
                    "loggedIn" [shape=doublecircle];
                    "loggedOut" -> "loggingIn" [label="login"];
                    "loggingIn" -> "loggedIn" [label="loginOK"];
                    "loggedIn" -> "loggingOut" [label="logout"];
                    "loggingOut" -> "loggedOut" [label="logoutOK"];
                    "loggingIn" -> "loggingOut" [label="forceLogout"];
                    "loggedIn" -> "loggingOut" [label="forceLogout"];
                }

                """)
    }

    @Test func namesAreSanitizedAndQuoted() throws {
        let table = try TransitionTable<String, String>([Transition(from: "a b", to: "c\"d", by: "go:\nnow")])
        #expect(table.mermaid() == "stateDiagram-v2\n    a_b --> c_d : go: now\n")
        #expect(table.dot().contains(#""a b" -> "c\"d" [label="go:\nnow"];"#))
    }
}

extension String: TransitionEvent {}
