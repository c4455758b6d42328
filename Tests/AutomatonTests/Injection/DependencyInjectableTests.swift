import Automaton
import AutomatonExamples
import Testing

@Suite struct DependencyInjectableTests {
    @Test func screenIsBuiltWithExactlyItsDependency() {
        let resource = MercariIDResource(userID: 3, nickname: "mika")
        let screen = AtteLoginScreen.make(withDependency: .init(resource: resource, token: "tok"))
        #expect(screen.dependency.resource == resource)
        #expect(screen.dependency.token == "tok")
        #expect(screen.description == "AtteLoginScreen(mika)")
    }

    @Test func voidDependencyNeedsNoArgument() {
        #expect(RootScreen.make() == RootScreen.make(withDependency: ()))
        #expect(RootScreen.make().state == .root)
    }

    @Test func profileScreenNamesItsSingleSource() {
        let screen = ProfileRegisterScreen.make(withDependency: .email("a@b.c"))
        #expect(screen.description == "ProfileRegisterScreen(e-mail: a@b.c)")
    }
}
