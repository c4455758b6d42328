// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The doc-comment examples of the Automaton module (Sources/Automaton), verbatim between the
// markers, so that they always compile; QuickStartTests/DocCommentSnippetTests checks that they
// match. They run on the sample flows of AutomatonExamples and on manual clocks, with
// expectations after each example; the names an example takes for granted are declared before it.
import Automaton
import AutomatonExamples
import Foundation
import SingletonStoresTestSupport
import Testing
import Timers

// Doc "Automaton/Effects/EffectQueue.swift" snippet 1: begin
extension EffectQueue {
    /// Server calls: a new one cancels the one in flight.
    static let auth = EffectQueue("auth", policy: .newest(1))
}

let loginEffect = Effect<LoginInput>(queue: .auth) { context in
    try await context.sleep(for: .seconds(1))
    return .loginOK
}
// Doc "Automaton/Effects/EffectQueue.swift" snippet 1: end

@Suite(.hangLimit) struct AutomatonDocCommentTests {
    // MARK: - Analysis

    @Test func transitionAnalysis() {
// Doc "Automaton/Analysis/TransitionAnalysis.swift" snippet 1: begin
let report = TransitionAnalysis(
    transitions: RegistrationFlow.transitions,
    initial: .root,
    finalStates: [.home],
    states: RegistrationState.allCases,
    kinds: RegistrationEvent.Kind.allCases
)
#expect(report.unreachableStates.isEmpty)
#expect(report.deadEnds.isEmpty)
// Doc "Automaton/Analysis/TransitionAnalysis.swift" snippet 1: end
        #expect(report.duplicateEdges.isEmpty)
    }

    @Test func shortestPath() throws {
// Doc "Automaton/Analysis/TransitionTable+ShortestPath.swift" snippet 1: begin
let path = try RegistrationFlow.makeTable().shortestPath(from: .root, to: .home)
// [.showRegisterRoot, .loginAndShowHome]
// Doc "Automaton/Analysis/TransitionTable+ShortestPath.swift" snippet 1: end
        #expect(path == [.showRegisterRoot, .loginAndShowHome])
    }

    // MARK: - DSL

    @Test func effectMapping() {
        let loginOK = Effect<LoginInput>.send(.loginOK)
        let forceLogoutOK = Effect<LoginInput>.send(.logoutOK)
        let canForceLogout: @Sendable (LoginState) -> Bool = { [.loggingIn, .loggedIn].contains($0) }
// Doc "Automaton/DSL/EffectMapping.swift" snippet 1: begin
let mappings: [EffectMapping<LoginState, LoginInput>] = [
    /*  input      | from state     => to state   | effect       */
    .login       | .loggedOut     => .loggingIn  | loginOK,
    .loginOK     | .loggingIn     => .loggedIn   | .none,
    .forceLogout | canForceLogout => .loggingOut | forceLogoutOK,
    .logout      | .any           => .loggingOut,
]
let mapping = EffectMapping(firstOf: mappings)
// Doc "Automaton/DSL/EffectMapping.swift" snippet 1: end
        #expect(mapping(.loggedOut, .login)?.state == .loggingIn)
        #expect(mapping(.loggedOut, .login)?.effect.isNone == false)
        #expect(mapping(.loggingIn, .loginOK)?.effect.isNone == true)
        #expect(mapping(.loggedIn, .forceLogout)?.state == .loggingOut)
        #expect(mapping(.loggedOut, .forceLogout) == nil)
        #expect(mapping(.loggingIn, .logout)?.state == .loggingOut)
        #expect(mapping(.loggedIn, .login) == nil)
    }

    @Test func mappingWildcard() {
        enum DoorState: Hashable, Sendable { case opened, closed, locked }
        enum DoorInput: Hashable, Sendable { case open, close, reset }
// Doc "Automaton/DSL/MappingWildcard.swift" snippet 1: begin
let mappings: [EffectMapping<DoorState, DoorInput>] = [
    .reset | .any    => .closed,   // reset from any state
    .any   | .locked => .locked,   // ignore every input while locked
    .open  | .closed => .opened,
]
// Doc "Automaton/DSL/MappingWildcard.swift" snippet 1: end
        let mapping = EffectMapping(firstOf: mappings)
        #expect(mapping(.opened, .reset)?.state == .closed)
        #expect(mapping(.locked, .reset)?.state == .closed)
        #expect(mapping(.locked, .open)?.state == .locked)
        #expect(mapping(.closed, .open)?.state == .opened)
        #expect(mapping(.opened, .open) == nil)
    }

    // MARK: - Effects

    @Test func effect() async throws {
// Doc "Automaton/Effects/Effect.swift" snippet 1: begin
let loginOK = Effect<LoginInput>(queue: .auth) { context in
    try await context.sleep(for: .seconds(1))
    return .loginOK
}
// Doc "Automaton/Effects/Effect.swift" snippet 1: end
        let clock = ManualClock()
        let automaton = EffectAutomaton<LoginState, LoginInput>(
            state: .loggedOut, clock: clock,
            mappings: [.login | .loggedOut => .loggingIn | loginOK, .loginOK | .loggingIn => .loggedIn])
        let login = await automaton.send(.login)
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await login.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedIn)
    }

    @Test func effectAutomaton() async throws {
        let clock = ManualClock()
        let loginOKEffect = Effect<LoginInput>(queue: .auth) { context in
            try await context.sleep(for: .seconds(1))
            return .loginOK
        }
        let logoutOKEffect = Effect<LoginInput>(queue: .auth) { _ in .logoutOK }
        let forceLogoutOKEffect = logoutOKEffect
// Doc "Automaton/Effects/EffectAutomaton.swift" snippet 1: begin
let canForceLogout: @Sendable (LoginState) -> Bool = { [.loggingIn, .loggedIn].contains($0) }
let automaton = EffectAutomaton<LoginState, LoginInput>(state: .loggedOut, clock: clock, mappings: [
    .login       | .loggedOut     => .loggingIn  | loginOKEffect,
    .loginOK     | .loggingIn     => .loggedIn   | .none,
    .logout      | .loggedIn      => .loggingOut | logoutOKEffect,
    .logoutOK    | .loggingOut    => .loggedOut  | .none,
    .forceLogout | canForceLogout => .loggingOut | forceLogoutOKEffect,
])

let login = await automaton.send(.login)   // .loggingIn; the effect starts
try await clock.waitForSleepers(1)         // the effect waits for its second (a manual clock)
await clock.advance(by: .seconds(1))       // the effect sends .loginOK by itself
await login.wait(includingFollowUps: true)
let state = await automaton.state          // .loggedIn
// Doc "Automaton/Effects/EffectAutomaton.swift" snippet 1: end
        #expect(login.reply == .success(input: .login, from: .loggedOut, to: .loggingIn))
        #expect(state == .loggedIn)
        let force = await automaton.send(.forceLogout)
        await force.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedOut)
    }

    @Test func effectAutomatonCancelAll() async throws {
        enum Screen: Hashable, Sendable { case home, login }
        enum Input: Hashable, Sendable { case refresh, showLogin }
        let clock = ManualClock()
        let refresh = Effect<Input> { context in
            try await context.sleep(for: .seconds(60))
            return nil
        }
        let automaton = EffectAutomaton<Screen, Input>(state: .home, clock: clock, mappings: [
            .refresh | .home => .home | refresh,
            .showLogin | .any => .login,
        ])
        await automaton.send(.refresh)
        await automaton.send(.refresh)
        try await clock.waitForSleepers(2)
// Doc "Automaton/Effects/EffectAutomaton.swift" snippet 2: begin
// The user signed out: abandon every request in flight, then start over.
await automaton.cancelAll()
await automaton.send(.showLogin)
// Doc "Automaton/Effects/EffectAutomaton.swift" snippet 2: end
        try await automaton.waitUntilIdle()
        #expect(await automaton.runningEffectCount == 0)
        #expect(await automaton.state == .login)
    }

    @Test func effectAutomatonWaitUntilIdle() async throws {
        enum Screen: Hashable, Sendable { case home }
        enum Input: Hashable, Sendable { case refresh }
        let clock = ManualClock()
        let refresh = Effect<Input> { context in
            try await context.sleep(for: .seconds(60))
            return nil
        }
        let automaton = EffectAutomaton<Screen, Input>(state: .home, clock: clock, mappings: [
            .refresh | .home => .home | refresh
        ])
// Doc "Automaton/Effects/EffectAutomaton.swift" snippet 3: begin
await automaton.send(.refresh)
try await clock.waitForSleepers(1)
await clock.advance(by: .seconds(60))
try await automaton.waitUntilIdle()  // if an effect never ends, the test fails, naming it
// Doc "Automaton/Effects/EffectAutomaton.swift" snippet 3: end
        #expect(await automaton.runningEffectCount == 0)
    }

    @Test func effectContext() async throws {
        enum TimerInput: Hashable, Sendable { case start, tick }
// Doc "Automaton/Effects/EffectContext.swift" snippet 1: begin
let ticker = Effect<TimerInput>.run { context in
    for _ in 0..<3 {
        try await context.sleep(for: .seconds(1))
        await context.send(.tick)
    }
}
// Doc "Automaton/Effects/EffectContext.swift" snippet 1: end
        let clock = ManualClock()
        let ticks = EffectAutomaton<Int, TimerInput>(
            state: 0, clock: clock,
            mapping: EffectMapping { count, input -> (Int, Effect<TimerInput>)? in
                switch input {
                case .start: (count, ticker)
                case .tick: (count + 1, .none)
                }
            })
        let start = await ticks.send(.start)
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(3))
        await start.wait(includingFollowUps: true)
        #expect(await ticks.state == 3)
    }

    @Test func effectHandle() async {
        let clock = ManualClock()
        let loginOK: Effect<LoginInput> = .send(.loginOK)
        let automaton = EffectAutomaton<LoginState, LoginInput>(
            state: .loggedOut, clock: clock, initialEffect: .send(.login),
            mappings: [
                .login | .loggedOut => .loggingIn | loginOK,
                .loginOK | .loggingIn => .loggedIn,
            ])
// Doc "Automaton/Effects/EffectHandle.swift" snippet 1: begin
let handle = await automaton.start()
await handle.wait(includingFollowUps: true) // the initial effect and all it led to
// Doc "Automaton/Effects/EffectHandle.swift" snippet 1: end
        #expect(await automaton.state == .loggedIn)
    }

    @Test func effectID() async throws {
        enum Input: Hashable, Sendable { case search, results }
        enum Screen: Hashable, Sendable { case idle, searching, showingResults }
        struct API: Sendable {
            let clock: ManualClock
            func search() async throws { try await clock.sleep(for: .seconds(1)) }
        }
        let clock = ManualClock()
        let api = API(clock: clock)
        let inFlight = Effect<Input>(id: "search") { _ in try await api.search(); return .results }
        let automaton = EffectAutomaton<Screen, Input>(state: .idle, clock: clock, mappings: [
            .search | .idle => .searching | inFlight,
            .results | .searching => .showingResults,
        ])
        let sent = await automaton.send(.search)
        try await clock.waitForSleepers(1)
// Doc "Automaton/Effects/EffectID.swift" snippet 1: begin
let search: EffectID = "search"
let effect = Effect<Input>(id: search) { context in try await api.search(); return .results }
await automaton.cancel(search)
// Doc "Automaton/Effects/EffectID.swift" snippet 1: end
        await sent.wait(includingFollowUps: true)
        #expect(await automaton.state == .searching)  // the results never came
        #expect(await automaton.runningEffectCount == 0)

        let other = EffectAutomaton<Screen, Input>(state: .idle, clock: clock, mappings: [
            .search | .idle => .searching | effect,
            .results | .searching => .showingResults,
        ])
        let second = await other.send(.search)
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await second.wait(includingFollowUps: true)
        #expect(await other.state == .showingResults)
    }

    @Test func effectIssue() async throws {
        let clock = ManualClock()
// Doc "Automaton/Effects/EffectIssue.swift" snippet 1: begin
let automaton = EffectAutomaton(
    state: .loggedOut, clock: clock,
    reportIssue: { issue in Issue.record("\(issue)") },  // fails the test
    mappings: LoginFlow.mappings()
)
// Doc "Automaton/Effects/EffectIssue.swift" snippet 1: end
        let login = await automaton.send(.login)
        try await clock.waitForSleepers(1)
        await clock.advance(by: LoginFlow.defaultLoginDuration)
        await login.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedIn)
    }

    @Test func effectPolicy() {
// Doc "Automaton/Effects/EffectPolicy.swift" snippet 1: begin
let search = EffectQueue("search", policy: .newest(1))  // type-ahead: only the latest search
let upload = EffectQueue("upload", policy: .oldest(2, whenFull: .suspendNew))  // two at a time, the rest wait
// Doc "Automaton/Effects/EffectPolicy.swift" snippet 1: end
        #expect(search.policy == .newest(1))
        #expect(upload.policy == .oldest(2, whenFull: .suspendNew))
        #expect(upload.name == "upload")
    }

    @Test func effectQueue() async throws {
        let clock = ManualClock()
        let automaton = EffectAutomaton<LoginState, LoginInput>(state: .loggedOut, clock: clock, mappings: [
            .login | .loggedOut => .loggingIn | loginEffect,
            .loginOK | .loggingIn => .loggedIn,
        ])
        let login = await automaton.send(.login)
        try await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await login.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedIn)
        #expect(EffectQueue.auth == LoginFlow.authQueue)
    }

    @Test func sendHandle() async {
        let automaton = LoginFlow.makeAutomaton(loginDuration: .zero)
// Doc "Automaton/Effects/SendHandle.swift" snippet 1: begin
let login = await automaton.send(.login)
let reply = login.reply                    // .success(input: .login, from: .loggedOut, to: .loggingIn)
await login.wait()                         // the login effect has ended
await login.wait(includingFollowUps: true) // … and everything it led to
await login.cancel()                       // or give up on it
// Doc "Automaton/Effects/SendHandle.swift" snippet 1: end
        #expect(reply == .success(input: .login, from: .loggedOut, to: .loggingIn))
        #expect(await automaton.state == .loggedIn)
    }

    // MARK: - Export

    /// Compiled, not run: it writes login.dot into the current directory.
    func transitionTableDOT() throws {
// Doc "Automaton/Export/TransitionTable+DOT.swift" snippet 1: begin
try LoginFlow.makeTable().dot(name: "Login", initial: .loggedOut)
    .write(toFile: "login.dot", atomically: true, encoding: .utf8)
// dot -Tsvg login.dot > login.svg
// Doc "Automaton/Export/TransitionTable+DOT.swift" snippet 1: end
    }

    @Test func transitionTableDOTText() throws {
        let dot = try LoginFlow.makeTable().dot(name: "Login", initial: .loggedOut)
        #expect(dot.hasPrefix("digraph \"Login\" {"))
        #expect(dot.contains("    \"loggedOut\" -> \"loggingIn\" [label=\"login\"];"))
    }

    @Test func transitionTableMermaid() throws {
// Doc "Automaton/Export/TransitionTable+Mermaid.swift" snippet 1: begin
print(try LoginFlow.makeTable().mermaid(initial: .loggedOut))
// stateDiagram-v2
//     [*] --> loggedOut
//     loggedOut --> loggingIn : login
//     ...
// Doc "Automaton/Export/TransitionTable+Mermaid.swift" snippet 1: end
        let lines = try LoginFlow.makeTable().mermaid(initial: .loggedOut).split(separator: "\n")
        #expect(Array(lines.prefix(3)) == ["stateDiagram-v2", "    [*] --> loggedOut", "    loggedOut --> loggingIn : login"])
    }

    // MARK: - Injection

    @Test func dependencyInjectable() {
        let resource = MercariIDResource(userID: 7, nickname: "orakaro")
        let token = "sample-token"
// Doc "Automaton/Injection/DependencyInjectable.swift" snippet 1: begin
struct AtteLoginScreen: DependencyInjectable {
    struct Dependency: Sendable {
        let resource: MercariIDResource
        let token: String
    }
    let dependency: Dependency

    static func make(withDependency dependency: Dependency) -> Self {
        Self(dependency: dependency)
    }
}

let screen = AtteLoginScreen.make(withDependency: .init(resource: resource, token: token))
// Doc "Automaton/Injection/DependencyInjectable.swift" snippet 1: end
        #expect(screen.dependency.resource == resource)
        #expect(screen.dependency.token == token)
    }

    // MARK: - Mealy

    @Test func mealyMachine() {
// Doc "Automaton/Mealy/MealyMachine.swift" snippet 1: begin
let machine = MealyMachine<LoginState, LoginInput, String>(initial: .loggedOut) { input in
    switch input {
    case .login:
        .accepting({ $0 == .loggedOut ? .loggingIn : nil }, output: { _, _ in "Logging in…" })
    default:
        .rejecting()
    }
}
var flow = machine
let first = flow.send(.login).output    // "Logging in…"
let second = flow.send(.login).output   // nil: rejected in .loggingIn
// Doc "Automaton/Mealy/MealyMachine.swift" snippet 1: end
        #expect(first == "Logging in…")
        #expect(second == nil)
        #expect(flow.state == .loggingIn)
    }

    @Test func stateMonadAccepting() {
// Doc "Automaton/Mealy/StateMonad+Transition.swift" snippet 1: begin
let step: StateMonad<LoginState, String?> = .accepting(
    { $0 == .loggedOut ? .loggingIn : nil },
    output: { from, to in "\(from) → \(to)" }
)
// Doc "Automaton/Mealy/StateMonad+Transition.swift" snippet 1: end
        let accepted = step.run(.loggedOut)
        #expect(accepted.state == .loggingIn)
        #expect(accepted.value == "loggedOut → loggingIn")
        let rejected = step.run(.loggedIn)
        #expect(rejected.state == .loggedIn)
        #expect(rejected.value == nil)
    }

    @Test func stateMonad() {
// Doc "Automaton/Mealy/StateMonad.swift" snippet 1: begin
let next: StateMonad<Int, String> = .init { count in (count + 1, "tick \(count)") }
let twice = next.flatMap { first in next.map { second in [first, second] } }
let result = twice.run(0) // (state: 2, value: ["tick 0", "tick 1"])
// Doc "Automaton/Mealy/StateMonad.swift" snippet 1: end
        #expect(result.state == 2)
        #expect(result.value == ["tick 0", "tick 1"])
    }

    // MARK: - Table

    @Test func finiteAutomaton() throws {
// Doc "Automaton/Table/FiniteAutomaton.swift" snippet 1: begin
var flow = try FiniteAutomaton<RegistrationState, RegistrationEvent>(
    initial: .root, transitions: RegistrationFlow.transitions)
flow.send(.showRegisterRoot)               // .success(input: .showRegisterRoot, from: .root, to: .registerRoot)
flow.send(.confirmSMS(phoneNumber: "090"))  // .failure: not defined in .registerRoot
let state = flow.state                      // .registerRoot
// Doc "Automaton/Table/FiniteAutomaton.swift" snippet 1: end
        #expect(state == .registerRoot)
        var copy = try FiniteAutomaton<RegistrationState, RegistrationEvent>(
            initial: .root, transitions: RegistrationFlow.transitions)
        #expect(copy.send(.showRegisterRoot) == .success(input: .showRegisterRoot, from: .root, to: .registerRoot))
        #expect(copy.send(.confirmSMS(phoneNumber: "090")) == .failure(input: .confirmSMS(phoneNumber: "090"), from: .registerRoot))
    }

    @Test func replay() throws {
// Doc "Automaton/Table/Replay.swift" snippet 1: begin
let table = try RegistrationFlow.makeTable()
let replay = table.replay(RegistrationFlow.routes["email-sign-up"] ?? [], from: .root)
#expect(replay.isComplete)
#expect(replay.state == .home)
// Doc "Automaton/Table/Replay.swift" snippet 1: end
        #expect(replay.replies.count == 5)
    }

    @Test func transition() {
// Doc "Automaton/Table/Transition.swift" snippet 1: begin
let edge = Transition(from: LoginState.loggedOut, to: .loggingIn, by: LoginInput.login)
// Doc "Automaton/Table/Transition.swift" snippet 1: end
        #expect(edge.description == "loggedOut --login--> loggingIn")
        #expect(LoginFlow.transitions.contains(edge))
    }

    @Test func transitionEvent() throws {
        enum SignUpState: Hashable, Sendable { case welcome, code, done }
// Doc "Automaton/Table/TransitionEvent.swift" snippet 1: begin
enum SignUpEvent: TransitionEvent {
    case start
    case confirm(code: String)

    enum Kind: Hashable, Sendable, CaseIterable { case start, confirm }

    var kind: Kind {
        switch self {
        case .start: .start
        case .confirm: .confirm
        }
    }
}

let table = try TransitionTable<SignUpState, SignUpEvent>([
    Transition(from: .welcome, to: .code, by: .start),
    Transition(from: .code, to: .done, by: .confirm),
])
let next = table.transition(from: .code, by: .confirm(code: "123456")) // .done
// Doc "Automaton/Table/TransitionEvent.swift" snippet 1: end
        #expect(next == .done)
        #expect(table.transition(from: .welcome, by: .confirm(code: "123456")) == nil)
    }

    @Test func transitionEventWithoutPayload() throws {
// Doc "Automaton/Table/TransitionEvent.swift" snippet 2: begin
enum Tap: Hashable, Sendable, TransitionEvent { case next, back }
// Doc "Automaton/Table/TransitionEvent.swift" snippet 2: end
        #expect(Tap.next.kind == .next)
        let table = try TransitionTable<Int, Tap>([Transition(from: 1, to: 2, by: .next), Transition(from: 2, to: 1, by: .back)])
        #expect(table.transition(from: 1, by: .next) == 2)
    }

    @Test func transitionReply() throws {
// Doc "Automaton/Table/TransitionReply.swift" snippet 1: begin
var machine = try FiniteAutomaton<LoginState, LoginInput>(initial: .loggedOut, transitions: LoginFlow.transitions)
switch machine.send(.login) {
case let .success(input, from, to): print("\(input): \(from) → \(to)")
case let .failure(input, from): print("\(input) is not allowed in \(from)")
}
// Doc "Automaton/Table/TransitionReply.swift" snippet 1: end
        #expect(machine.state == .loggingIn)
        #expect(machine.send(.login) == .failure(input: .login, from: .loggingIn))
    }

    @Test func transitionTable() throws {
// Doc "Automaton/Table/TransitionTable.swift" snippet 1: begin
let table = try TransitionTable<LoginState, LoginInput>([
    Transition(from: .loggedOut, to: .loggingIn, by: .login),
    Transition(from: .loggingIn, to: .loggedIn, by: .loginOK),
])
let next = table.transition(from: .loggedOut, by: .login)       // .loggingIn
let undefined = table.transition(from: .loggedOut, by: .loginOK) // nil: not defined
// Doc "Automaton/Table/TransitionTable.swift" snippet 1: end
        #expect(next == .loggingIn)
        #expect(undefined == nil)
    }
}
