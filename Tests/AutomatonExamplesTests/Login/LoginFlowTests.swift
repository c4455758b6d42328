import SingletonStoresTestSupport
import Automaton
import AutomatonExamples
import Testing
import Timers

@Suite(.hangLimit) struct LoginFlowTests {
    @Test func fullLoginCycle() async throws {
        let clock = ManualClock()
        let automaton = LoginFlow.makeAutomaton(clock: clock)
        let replies = await automaton.replies()

        let login = await automaton.send(.login)
        #expect(login.reply == .success(input: .login, from: .loggedOut, to: .loggingIn))
        try await clock.expectSleepers(1)
        await clock.advance(by: LoginFlow.defaultLoginDuration)
        await login.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedIn)

        let logout = await automaton.send(.logout)
        #expect(await automaton.state == .loggingOut)
        try await clock.expectSleepers(1)
        await clock.advance(by: LoginFlow.defaultLogoutDuration)
        await logout.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedOut)

        await automaton.shutdown()
        #expect(
            await Array(replies) == [
                .success(input: .login, from: .loggedOut, to: .loggingIn),
                .success(input: .loginOK, from: .loggingIn, to: .loggedIn),
                .success(input: .logout, from: .loggedIn, to: .loggingOut),
                .success(input: .logoutOK, from: .loggingOut, to: .loggedOut),
            ])
    }

    @Test func effectDrivesTheNextTransitionWithoutUserInput() async throws {
        let clock = ManualClock()
        let automaton = LoginFlow.makeAutomaton(clock: clock, loginDuration: .seconds(3))
        let login = await automaton.send(.login)
        try await clock.expectSleepers(1)
        await clock.advance(by: .seconds(2))
        #expect(await automaton.state == .loggingIn)
        await clock.advance(by: .seconds(1))
        await login.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedIn)
    }

    @Test func forceLogoutPathRejectsLoginOKAndLogoutUntilLogoutOK() async throws {
        let clock = ManualClock()
        let automaton = LoginFlow.makeAutomaton(clock: clock)
        let replies = await automaton.replies()
        let login = await automaton.send(.login)
        try await clock.expectSleepers(1)

        let force = await automaton.send(.forceLogout)
        #expect(force.reply == .success(input: .forceLogout, from: .loggingIn, to: .loggingOut))
        await login.wait()  // cancelled by the newer server call
        #expect(await automaton.send(.loginOK).reply == .failure(input: .loginOK, from: .loggingOut))
        #expect(await automaton.send(.logout).reply == .failure(input: .logout, from: .loggingOut))
        #expect(await automaton.state == .loggingOut)

        try await clock.expectSleepers(1)
        await clock.advance(by: LoginFlow.defaultLogoutDuration)
        await force.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedOut)
        await automaton.shutdown()
        let all = await Array(replies)
        #expect(all.filter { $0.input == .loginOK }.count == 1)  // only the one sent by hand
        #expect(all.last == .success(input: .logoutOK, from: .loggingOut, to: .loggedOut))
    }

    @Test func forceLogoutWhenLoggedIn() async throws {
        let clock = ManualClock()
        let automaton = LoginFlow.makeAutomaton(state: .loggedIn, clock: clock)
        let force = await automaton.send(.forceLogout)
        try await clock.expectSleepers(1)
        await clock.advance(by: LoginFlow.defaultLogoutDuration)
        await force.wait(includingFollowUps: true)
        #expect(await automaton.state == .loggedOut)
        #expect(await automaton.send(.forceLogout).reply == .failure(input: .forceLogout, from: .loggedOut))
    }

    @Test(arguments: ["full-cycle", "force-logout"])
    func namedRoutesReplayThroughTheTable(route: String) throws {
        let events = try #require(LoginFlow.routes[route])
        let replay = try LoginFlow.makeTable().replay(events, from: .loggedOut)
        #expect(replay.isComplete)
        #expect(replay.state == .loggedOut)
    }
}
