import Foundation
import Observation
import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
import StoreObservation
import Testing
import Timers

/// `SharedCountdownStore`: a countdown every instance of a service shows, on a network storage.
@Suite("A countdown on a network storage")
struct SharedCountdownStoreTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Two instances on one server and one time: what one starts, pauses, resumes and stops, the
    /// other shows, with the same posts as a change of its own.
    @Test func aSecondInstanceFollowsEveryChange() async throws {
        let server = TestServer()
        let clock = ManualClock()
        let wall = clock.wallClock(startingAt: Self.start)
        let first = try await SharedCountdownStore(
            key: "boost", clock: clock, wallClock: wall, storage: TestNetworkStorage(server: server),
            center: NotificationCenter())
        let second = try await SharedCountdownStore(
            key: "boost", clock: clock, wallClock: wall, storage: TestNetworkStorage(server: server),
            center: NotificationCenter())
        let shown = Recorder<Int>()
        let pauses = Recorder<Bool>()
        let ends = Recorder<CountdownEnd>()
        let tokens = [
            second.observe { shown.append($0) },
            second.pauses.observe(center: second.center) { pauses.append($0) },
            second.observeEnds { ends.append($0) },
        ]
        #expect(!second.isRunning)

        try await first.start(duration: .seconds(600))
        #expect(first.remainingSeconds == 600, "shown here once the call returns")
        #expect(first.endDate == Self.start.addingTimeInterval(600))
        #expect(await waitUntil { second.remainingSeconds == 600 })
        #expect(second.endDate == first.endDate, "one end date, read from the storage")
        #expect(await waitUntil { shown.values.last == 600 }, "the start is posted too: \(shown.values)")

        await clock.advance(by: .seconds(60))
        #expect(first.remainingSeconds == 540)
        #expect(second.remainingSeconds == 540)

        try await second.setPaused(true)
        #expect(second.isPaused)
        #expect(await waitUntil { first.isPaused })
        #expect(first.remainingSeconds == 540)
        #expect(first.endDate == nil, "a paused countdown has no end")
        await clock.advance(by: .seconds(30))
        #expect(first.remainingSeconds == 540, "frozen everywhere")

        try await first.setPaused(false)
        #expect(await waitUntil { !second.isPaused })
        await clock.advance(by: .seconds(40))
        #expect(second.remainingSeconds == 500)

        try await first.extend(by: .seconds(100))
        #expect(await waitUntil { second.remainingSeconds == 600 })

        try await first.stop()
        #expect(await waitUntil { !second.isRunning })
        #expect(pauses.values == [true, false], "the pause and the resume, once each")
        #expect(await waitUntil { ends.values == [.stopped] }, "\(ends.values)")
        #expect(await waitUntil { shown.values.last == 0 }, "\(shown.values)")
        tokens.forEach { $0.cancel() }
    }

    /// A countdown that runs out ends on every instance, once, and is no countdown after: a start
    /// only if idle starts the next one.
    @Test func aCountdownThatRunsOutEndsEverywhereAndLetsTheNextStart() async throws {
        let server = TestServer()
        let clock = ManualClock()
        let wall = clock.wallClock(startingAt: Self.start)
        let first = try await SharedCountdownStore(
            key: "refill", clock: clock, wallClock: wall, storage: TestNetworkStorage(server: server),
            center: NotificationCenter())
        let second = try await SharedCountdownStore(
            key: "refill", clock: clock, wallClock: wall, storage: TestNetworkStorage(server: server),
            center: NotificationCenter())
        let ends = Recorder<CountdownEnd>()
        let tokens = [first.observeEnds { ends.append($0) }, second.observeEnds { ends.append($0) }]
        try await first.startIfIdle(duration: .seconds(10))
        #expect(await waitUntil { second.remainingSeconds == 10 })
        await #expect(throws: CountdownError.alreadyRunning(remainingSeconds: 10)) {
            try await second.startIfIdle(duration: .seconds(99))
        }
        await clock.advance(by: .seconds(10))
        #expect(await waitUntil { ends.values == [.finished, .finished] }, "\(ends.values)")
        try await second.startIfIdle(duration: .seconds(20))
        #expect(await waitUntil { first.remainingSeconds == 20 })
        tokens.forEach { $0.cancel() }
    }

    /// Of two instances starting a countdown only if none runs, at once, exactly one starts.
    @Test func ofTwoStartsIfIdleExactlyOneStarts() async throws {
        let server = TestServer()
        let clock = ManualClock()
        let stores = [
            try await SharedCountdownStore(
                key: "boost", clock: clock, storage: TestNetworkStorage(server: server), center: NotificationCenter()),
            try await SharedCountdownStore(
                key: "boost", clock: clock, storage: TestNetworkStorage(server: server), center: NotificationCenter()),
        ]
        server.hold()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    do throws(CountdownError) {
                        try await store.startIfIdle(duration: .seconds(100 + index))
                        return true
                    } catch {
                        guard case .alreadyRunning = error else { return false }
                        return false
                    }
                }
            }
            #expect(await waitUntil { server.heldCount == 2 }, "both decide at once")
            server.release()
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1, "\(outcomes)")
    }

    /// A server down at launch: no countdown, and an error naming the server. Down for a change:
    /// the change throws and the countdown is as it was.
    @Test func aServerDownIsThrownAndChangesNothing() async throws {
        let server = TestServer()
        server.state.withLock { $0.down = true }
        await #expect {
            _ = try await SharedCountdownStore(key: "boost", storage: TestNetworkStorage(server: server))
        } throws: { error in
            guard case StorageError.backendUnreachable(let backend, _) = error else { return false }
            return backend.contains("db.example:5432")
        }
        server.state.withLock { $0.down = false }
        let clock = ManualClock()
        let boost = try await SharedCountdownStore(
            key: "boost", clock: clock, storage: TestNetworkStorage(server: server), center: NotificationCenter())
        try await boost.start(duration: .seconds(60))
        server.state.withLock { $0.down = true }
        await #expect(throws: StorageError.self) { try await boost.stop() }
        #expect(boost.remainingSeconds == 60, "the countdown runs on")
        await #expect(throws: StorageError.self) { try await boost.start(duration: .seconds(5)) }
        #expect(boost.remainingSeconds == 60)
    }

    /// A screen reading the countdown is told of a change another instance made.
    @Test func aScreenIsToldOfAnotherInstancesStart() async throws {
        let server = TestServer()
        let clock = ManualClock()
        // The end date is read on the wall clock: the test's own, so that a loaded machine's
        // seconds do not pass between the start and the read.
        let wall = clock.wallClock(startingAt: Self.start)
        let screen = try await SharedCountdownStore(
            key: "boost", clock: clock, wallClock: wall, storage: TestNetworkStorage(server: server),
            center: NotificationCenter())
        let other = try await SharedCountdownStore(
            key: "boost", clock: clock, wallClock: wall, storage: TestNetworkStorage(server: server),
            center: NotificationCenter(), follows: false)
        let told = Locked(0)
        withObservationTracking {
            _ = screen.remainingSeconds
        } onChange: {
            told.withLock { $0 += 1 }
        }
        try await other.start(duration: .seconds(90))
        #expect(await waitUntil { told.withLock { $0 } == 1 })
        #expect(screen.remainingSeconds == 90)
    }

    /// The document is the one `CountdownStore` writes: a countdown in files, read through the
    /// asynchronous form of the same storage, and the other way round.
    @Test func itReadsAndWritesTheCountdownStoresDocument() async throws {
        try await withTemporaryFolder { folder in
            let clock = ManualClock()
            let wall = clock.wallClock(startingAt: Self.start)
            let local = CountdownStore(
                key: "premium", clock: clock, wallClock: wall, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off)
            try local.start(duration: .seconds(300))
            let shared = try await SharedCountdownStore(
                key: "premium", clock: clock, wallClock: wall, storage: FileStorage(folder: folder).asynchronous,
                center: NotificationCenter(), follows: false)
            #expect(shared.remainingSeconds == 300)
            try await shared.setPaused(true)
            let relaunched = CountdownStore(
                key: "premium", clock: ManualClock(), wallClock: wall, storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off)
            #expect(relaunched.isPaused)
            #expect(relaunched.remainingSeconds == 300)
        }
    }

    /// A countdown that is released stops silently: no end is posted, and it follows nothing.
    @Test func aReleasedCountdownEndsSilently() async throws {
        let server = TestServer()
        let clock = ManualClock()
        let center = NotificationCenter()
        let ends = Recorder<CountdownEnd>()
        var boost: SharedCountdownStore? = try await SharedCountdownStore(
            key: "boost", clock: clock, storage: TestNetworkStorage(server: server), center: center)
        let token = try #require(boost).ends.observe(center: center) { ends.append($0) }
        try await boost?.start(duration: .seconds(5))
        weak let weakBoost = boost
        boost = nil
        #expect(await waitUntil { weakBoost == nil }, "the countdown was not released")
        await clock.advance(by: .seconds(10))
        let other = try await SharedCountdownStore(
            key: "boost", clock: clock, storage: TestNetworkStorage(server: server), center: NotificationCenter())
        try await other.start(duration: .seconds(3))
        #expect(ends.values.isEmpty, "\(ends.values)")
        token.cancel()
    }

    /// A bad key is refused before anything is read.
    @Test func aBadKeyIsRefused() async {
        await #expect {
            _ = try await SharedCountdownStore(key: "../boost", storage: TestNetworkStorage(server: TestServer()))
        } throws: { error in
            guard case StorageError.invalidKey = error else { return false }
            return true
        }
    }
}
