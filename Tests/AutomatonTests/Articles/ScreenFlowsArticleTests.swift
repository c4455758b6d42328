// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "Screen flows as state machines" (Sources/Automaton/Automaton.docc),
// verbatim between the markers, so that it always compiles. Snippets made of statements sit in
// functions, which the suite at the end runs; the article's tests run as they are.
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.
import Foundation

// Article "ScreenFlowsAsStateMachines" snippet 1: begin
import Automaton

enum SignUpState: Hashable, Sendable, CaseIterable {
    case welcome, phone, code, profile, home
}

enum SignUpEvent: TransitionEvent {
    case start
    case submitPhone(String)
    case confirmCode(String)
    case saveProfile(nickname: String)
    case back

    enum Kind: Hashable, Sendable, CaseIterable {
        case start, submitPhone, confirmCode, saveProfile, back
    }

    var kind: Kind {
        switch self {
        case .start: .start
        case .submitPhone: .submitPhone
        case .confirmCode: .confirmCode
        case .saveProfile: .saveProfile
        case .back: .back
        }
    }
}

enum SignUpFlow {
    static let transitions: [Transition<SignUpState, SignUpEvent.Kind>] = [
        Transition(from: .welcome, to: .phone, by: .start),
        Transition(from: .phone, to: .code, by: .submitPhone),
        Transition(from: .code, to: .phone, by: .back),
        Transition(from: .code, to: .profile, by: .confirmCode),
        Transition(from: .profile, to: .home, by: .saveProfile),
    ]
}
// Article "ScreenFlowsAsStateMachines" snippet 1: end

func screenFlowsArticleRun() throws -> SignUpState {
    // Article "ScreenFlowsAsStateMachines" snippet 2: begin
var flow = try FiniteAutomaton<SignUpState, SignUpEvent>(initial: .welcome, transitions: SignUpFlow.transitions)
flow.send(.start)  // success: welcome → phone
flow.send(.confirmCode("123456"))  // failure: no such edge from phone; the state stays
flow.send(.submitPhone("090-1234-5678"))  // success: phone → code, carrying the number
print(flow.state)  // code
    // Article "ScreenFlowsAsStateMachines" snippet 2: end
    return flow.state
}

// Article "ScreenFlowsAsStateMachines" snippet 3: begin
import Testing

@Test func aNewUserReachesHome() throws {
    let table = try TransitionTable<SignUpState, SignUpEvent>(SignUpFlow.transitions)
    let route: [SignUpEvent] = [.start, .submitPhone("090"), .confirmCode("123456"), .saveProfile(nickname: "Aki")]
    let replay = table.replay(route, from: .welcome)
    #expect(replay.isComplete)
    #expect(replay.path == [.welcome, .phone, .code, .profile, .home])
    #expect(table.shortestPath(from: .welcome, to: .home) == [.start, .submitPhone, .confirmCode, .saveProfile])
}

@Test func theFlowHasNoUnreachableStatesOrDeadEnds() throws {
    let table = try TransitionTable<SignUpState, SignUpEvent>(SignUpFlow.transitions)
    let report = table.analysis(initial: .welcome, finalStates: [.home])
    #expect(report.isClean)  // no unreachable state, dead end or duplicate edge
    // Listed for review, not an error: should the phone screen have a way back?
    #expect(report.unhandledPairs.contains(.init(state: .phone, kind: .back)))
}
// Article "ScreenFlowsAsStateMachines" snippet 3: end

func screenFlowsArticleDiagram() throws -> String {
    // Article "ScreenFlowsAsStateMachines" snippet 4: begin
let table = try TransitionTable<SignUpState, SignUpEvent>(SignUpFlow.transitions)
let diagram = table.mermaid(initial: .welcome, finalStates: [.home])
    // Article "ScreenFlowsAsStateMachines" snippet 4: end
    return diagram
}

func screenFlowsArticleNextScreen() -> String? {
    // Article "ScreenFlowsAsStateMachines" snippet 5: begin
struct CodeScreen: DependencyInjectable {
    struct Dependency: Sendable { let phoneNumber: String }
    let dependency: Dependency
    static func make(withDependency dependency: Dependency) -> Self { Self(dependency: dependency) }
}

let machine = MealyMachine<SignUpState, SignUpEvent, CodeScreen>(initial: .phone) { event in
    guard case .submitPhone(let number) = event else { return .rejecting() }
    return .accepting({ $0 == .phone ? .code : nil }, output: { _, _ in
        CodeScreen.make(withDependency: .init(phoneNumber: number))
    })
}
var signUp = machine
let screen = signUp.send(.submitPhone("090-1234-5678")).output  // a CodeScreen for that number
    // Article "ScreenFlowsAsStateMachines" snippet 5: end
    return screen?.dependency.phoneNumber
}

// Article "ScreenFlowsAsStateMachines" snippet 6: begin
enum UploadState: Hashable, Sendable { case idle, uploading, done }
enum UploadInput: Hashable, Sendable { case upload, cancel, finished }

extension EffectQueue {
    static let uploads = EffectQueue("uploads", policy: .newest(1))  // a new upload cancels the one in flight
}

let uploadID: EffectID = "upload"

func makeUploader(clock: any Clock<Duration>) -> EffectAutomaton<UploadState, UploadInput> {
    let upload = Effect<UploadInput>(id: uploadID, queue: .uploads) { context in
        try await context.sleep(for: .seconds(2))  // the server's time, on the injected clock
        return .finished
    }
    return EffectAutomaton(state: .idle, clock: clock, mappings: [
        /*  input  | from state => to state  | effect */
        .upload   | .idle      => .uploading | upload,
        .finished | .uploading => .done,
        .cancel   | .uploading => .idle      | .cancel(uploadID),
    ])
}
// Article "ScreenFlowsAsStateMachines" snippet 6: end

// Article "ScreenFlowsAsStateMachines" snippet 7: begin
import Timers

@Test func anUploadFinishesWhenTheServerAnswers() async throws {
    let clock = ManualClock()
    let uploader = makeUploader(clock: clock)
    let upload = await uploader.send(.upload)
    #expect(upload.reply.isSuccess)
    try await clock.waitForSleepers(1)  // the upload is waiting for the server
    await clock.advance(by: .seconds(2))
    await upload.wait(includingFollowUps: true)
    #expect(await uploader.state == .done)
}

@Test func cancellingDropsTheAnswer() async throws {
    let clock = ManualClock()
    let uploader = makeUploader(clock: clock)
    await uploader.send(.upload)
    await uploader.send(.cancel)  // cancels the effect with id "upload": .finished never comes
    await clock.advance(by: .seconds(2))
    try await uploader.waitUntilIdle()
    #expect(await uploader.state == .idle)
}
// Article "ScreenFlowsAsStateMachines" snippet 7: end

@Suite struct ScreenFlowsArticleTests {
    @Test func theFlowEndsOnTheCodeScreen() throws {
        #expect(try screenFlowsArticleRun() == .code)
    }

    @Test func theArticleShowsTheDiagramTheTableDraws() throws {
        let article = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Sources/Automaton/Automaton.docc/ScreenFlowsAsStateMachines.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let start = try #require(text.range(of: "```text\n"))
        let end = try #require(text[start.upperBound...].range(of: "```"))
        #expect(try screenFlowsArticleDiagram() == String(text[start.upperBound..<end.lowerBound]))
    }

    @Test func theNextScreenGetsTheNumber() {
        #expect(screenFlowsArticleNextScreen() == "090-1234-5678")
    }
}
