import Automaton
import AutomatonExamples
import Testing

@Suite struct MappingOperatorsTests {
    static let mapping = EffectMapping(firstOf: LoginFlow.mappings())

    @Test func seedRulesReadAsInTheTalk() {
        #expect(Self.mapping(.loggedOut, .login)?.state == .loggingIn)
        #expect(Self.mapping(.loggingIn, .loginOK)?.state == .loggedIn)
        #expect(Self.mapping(.loggedIn, .logout)?.state == .loggingOut)
        #expect(Self.mapping(.loggingOut, .logoutOK)?.state == .loggedOut)
        #expect(Self.mapping(.loggedOut, .loginOK) == nil)
    }

    @Test func effectIsAttachedOnlyWhereWritten() {
        #expect(Self.mapping(.loggedOut, .login)?.effect.isNone == false)
        #expect(Self.mapping(.loggingIn, .loginOK)?.effect.isNone == true)
    }

    @Test func predicateDecidesTheFromState() {
        #expect(Self.mapping(.loggingIn, .forceLogout)?.state == .loggingOut)
        #expect(Self.mapping(.loggedIn, .forceLogout)?.state == .loggingOut)
        #expect(Self.mapping(.loggedOut, .forceLogout) == nil)
        #expect(Self.mapping(.loggingOut, .forceLogout) == nil)
    }

    @Test func anyMatchesEveryStateAndEveryInput() {
        let resetAnywhere: EffectMapping<LoginState, LoginInput> = .forceLogout | .any => .loggedOut
        let frozen: EffectMapping<LoginState, LoginInput> = .any | .loggingOut => .loggingOut
        for state in LoginState.allCases {
            #expect(resetAnywhere(state, .forceLogout)?.state == .loggedOut)
            #expect(resetAnywhere(state, .login) == nil)
        }
        for input in LoginInput.allCases {
            #expect(frozen(.loggingOut, input)?.state == .loggingOut)
            #expect(frozen(.loggedIn, input) == nil)
        }
    }

    @Test func anyCombinesWithPredicatesAndWithItself() {
        let isServerAnswer: @Sendable (LoginInput) -> Bool = { $0 == .loginOK || $0 == .logoutOK }
        let answers: EffectMapping<LoginState, LoginInput> = isServerAnswer | .any => .loggedOut
        let whileBusy: EffectMapping<LoginState, LoginInput> = .any | LoginFlow.canForceLogout => .loggingOut
        let everything: EffectMapping<LoginState, LoginInput> = .any | .any => .loggedOut
        for state in LoginState.allCases {
            for input in LoginInput.allCases {
                #expect((answers(state, input) != nil) == isServerAnswer(input))
                #expect((whileBusy(state, input) != nil) == LoginFlow.canForceLogout(state))
                #expect(everything(state, input)?.state == .loggedOut)
            }
        }
    }

    /// A filter whose own cases include `any`.
    enum Filter: Hashable, Sendable {
        case any, unread
    }

    @Test func dotAnyIsTheWildcardEvenWhenTheStateHasAnAnyCase() {
        let wildcard: EffectMapping<Filter, LoginInput> = .logout | .any => .unread
        let theCase: EffectMapping<Filter, LoginInput> = .logout | Filter.any => .unread
        #expect(wildcard(.unread, .logout)?.state == .unread)
        #expect(theCase(.unread, .logout) == nil)
        #expect(theCase(.any, .logout)?.state == .unread)
    }

    @Test func inputPredicateWithStatePredicate() {
        let isServerAnswer: @Sendable (LoginInput) -> Bool = { $0 == .loginOK || $0 == .logoutOK }
        let rule: EffectMapping<LoginState, LoginInput> = isServerAnswer | LoginFlow.canForceLogout => .loggedIn | .none
        #expect(rule(.loggingIn, .logoutOK)?.state == .loggedIn)
        #expect(rule(.loggingIn, .login) == nil)
        #expect(rule(.loggedOut, .loginOK) == nil)
    }

    @Test func firstMatchWins() {
        let combined = EffectMapping<LoginState, LoginInput>(firstOf: [
            .login | .loggedOut => .loggingIn,
            .login | .any => .loggedIn,
        ])
        #expect(combined(.loggedOut, .login)?.state == .loggingIn)
        #expect(combined(.loggingOut, .login)?.state == .loggedIn)
        #expect(combined(.loggingOut, .logout) == nil)
    }
}
