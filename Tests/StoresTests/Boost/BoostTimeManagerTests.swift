import SingletonStoresTestSupport
import Foundation
import StoreObservation
import SingletonStoresTesting
import Stores
import Testing
import Timers

@Suite struct BoostTimeManagerTests {
    @Test func ninetySecondBoostPostsEveryShownValueAtItsExactInstant() async {
        let rig = BoostTestRig()
        let stamped = Recorder<String>()
        let token = NotificationChannel.boostTime.observe(center: rig.center) { seconds in
            stamped.append("\(seconds)@\(rig.clock.now.offset.components.seconds)")
        }
        rig.boost.startCountDown(duration: 90)
        #expect(rig.boost.isInBoostTime)
        #expect(rig.boost.remainingSeconds == 90)
        await rig.clock.advance(by: .seconds(90))
        token.cancel()

        #expect(rig.ticks == Array((0...90).reversed()), "the start value, then 89…0")
        #expect(stamped.values == (0...90).reversed().map { "\($0)@\(90 - $0)" })
        #expect(rig.ends == [.finished])
        #expect(!rig.boost.isInBoostTime)
    }

    @Test func classicObserverGetsTheSecondsAsTheNotificationObject() async {
        let rig = BoostTestRig()
        let objects = Recorder<Int>()
        let observer = rig.center.addObserver(forName: .boostTimeNotification, object: nil, queue: nil) { note in
            if let seconds = note.object as? Int { objects.append(seconds) }
        }
        rig.boost.startCountDown(duration: 3)
        await rig.clock.advance(by: .seconds(3))
        rig.center.removeObserver(observer)
        #expect(objects.values == [3, 2, 1, 0])
    }

    /// Each tick's notification carries its seconds alone in `userInfo` (under the payload key)
    /// and as `object`; one an observer keeps keeps its own seconds through the ticks after it.
    @Test func eachTickNotificationKeepsItsOwnSeconds() async {
        struct Kept: @unchecked Sendable { let note: Notification }
        let rig = BoostTestRig()
        let kept = Recorder<Kept>()
        let observer = rig.center.addObserver(forName: .boostTimeNotification, object: nil, queue: nil) { note in
            kept.append(Kept(note: note))
        }
        rig.boost.startCountDown(duration: 3)
        await rig.clock.advance(by: .seconds(3))
        rig.center.removeObserver(observer)
        let notes = kept.values.map(\.note)
        #expect(notes.map { $0.object as? Int } == [3, 2, 1, 0])
        #expect(notes.map { $0.userInfo?[NotificationChannel<Int>.payloadKey] as? Int } == [3, 2, 1, 0])
        #expect(notes.map { $0.userInfo?.count } == [1, 1, 1, 1])
    }

    /// Seed 004's bug report: the popup opens 400 ms after the main screen. With one shared
    /// countdown both always show the same value.
    @Test func mainScreenAndLatePopupAgreeAtEveryChange() async {
        let rig = BoostTestRig()
        let shown = Recorder<String>()
        let main = NotificationChannel.boostTime.observe(center: rig.center) { seconds in
            shown.append("main \(seconds) popup? \(seconds)")
        }
        rig.boost.startCountDown(duration: 15 * 60)
        await rig.clock.advance(by: .milliseconds(400))
        // The popup opens late and reads the store, then redraws on each notification.
        let popupInitial = rig.boost.remainingSeconds
        let pairs = Recorder<[Int]>()
        let popup = NotificationChannel.boostTime.observe(center: rig.center) { seconds in
            pairs.append([seconds, rig.boost.remainingSeconds])
        }
        #expect(popupInitial == 15 * 60, "at 0.4 s the shown value is still 15:00 on every screen")
        await rig.clock.advance(by: .seconds(15 * 60))
        main.cancel(); popup.cancel()
        #expect(pairs.count == 15 * 60)
        #expect(pairs.values.allSatisfy { $0[0] == $0[1] }, "the popup's value is the store's value")
        #expect(shown.count == 15 * 60 + 1)
    }

    @Test func thousandObserversShareOneTimerTask() async {
        let rig = BoostTestRig()
        let received = Recorder<Int>()
        let tokens = (0..<1_000).map { _ in
            NotificationChannel.boostTime.observe(center: rig.center) { received.append($0) }
        }
        rig.boost.startCountDown(duration: 10)
        await rig.clock.advance(by: .seconds(1))
        #expect(rig.clock.sleeperCount == 1, "one countdown task sleeps, however many observe")
        await rig.clock.advance(by: .seconds(9))
        #expect(received.count == 1_000 * 11)
        #expect(rig.clock.sleeperCount == 0, "the task ends at 0")
        tokens.forEach { $0.cancel() }
    }

    @Test func restartReplacesTheRunningBoostWithoutEndingIt() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 10)
        await rig.clock.advance(by: .seconds(4))
        rig.boost.startCountDown(duration: 3)
        await rig.clock.advance(by: .seconds(10))
        #expect(rig.ticks == [10, 9, 8, 7, 6, 3, 2, 1, 0])
        #expect(rig.ends == [.finished], "the replaced boost does not end; the new one does, once")
    }

    @Test func extendAddsTimeAndPauseFreezesIt() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 5)
        await rig.clock.advance(by: .seconds(2))
        rig.boost.extend(by: 10)
        #expect(rig.boost.remainingSeconds == 13)
        rig.boost.pause()
        await rig.clock.advance(by: .seconds(100))
        #expect(rig.boost.remainingSeconds == 13)
        #expect(rig.boost.isPaused)
        rig.boost.resume()
        await rig.clock.advance(by: .seconds(13))
        #expect(rig.boost.remainingSeconds == 0)
        #expect(rig.ends == [.finished])
    }

    /// A device that wakes after a century: the clock jumps, the countdown wakes once, ends once.
    @Test func aHundredYearBoostJumpedToItsEndEndsOnceWithoutTickingEverySecond() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: .max)  // clamped to 100 years
        #expect(rig.ticks == [Int(BoostTimeManager.maximumDuration.components.seconds)])
        await rig.clock.jump(by: BoostTimeManager.maximumDuration)  // one wake, not 3,153,600,000 ticks
        await rig.clock.advance()  // let the woken countdown finish its step
        #expect(rig.ticks == [Int(BoostTimeManager.maximumDuration.components.seconds), 0])
        #expect(rig.ends == [.finished])
        #expect(!rig.boost.isInBoostTime)
        #expect(!rig.relaunch().boost.isInBoostTime, "the ended boost is cleared on disk")
    }

    @Test func stopEndsOnceAndClearsThePersistedBoost() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 60)
        await rig.clock.advance(by: .seconds(1))
        rig.boost.stopCountDown()
        rig.boost.stopCountDown()
        #expect(!rig.boost.isInBoostTime)
        #expect(rig.ends == [.stopped])
        #expect(!rig.relaunch().boost.isInBoostTime)
    }

    @Test func relaunchMidBoostResumesWithTheTimeLeft() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 600)
        await rig.clock.advance(by: .seconds(100))
        rig.wall.advance(by: .seconds(100))  // the wall clock moved as well, as it does

        let next = rig.relaunch()
        #expect(next.boost.remainingSeconds == 500)
        await next.clock.advance(by: .seconds(500))
        #expect(next.ends == [.finished])
        #expect(!next.relaunch().boost.isInBoostTime, "a finished boost is not resumed")
    }

    /// The record is cleared because the countdown ended, not because the wall clock says so: a
    /// boost that ran out after the user set the device time back is not resumed.
    @Test func finishedBoostIsNotResumedAfterTheWallClockWasSetBack() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 60)
        rig.wall.advance(by: .seconds(-3_600))
        await rig.clock.advance(by: .seconds(60))
        #expect(rig.ends == [.finished])
        #expect(!rig.relaunch().boost.isInBoostTime)
    }

    @Test func relaunchAfterTheEndShowsNoBoost() {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 60)
        rig.wall.advance(by: .seconds(3_600))
        let next = rig.relaunch()
        #expect(!next.boost.isInBoostTime)
        #expect(next.boost.remainingSeconds == 0)
        #expect(next.ticks.isEmpty, "nothing is posted for a boost that ended while the app was closed")
    }

    @Test func relaunchWhilePausedKeepsItPaused() async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 60)
        await rig.clock.advance(by: .seconds(20))
        rig.boost.pause()
        rig.wall.advance(by: .seconds(3_600))
        let next = rig.relaunch()
        #expect(next.boost.isPaused)
        #expect(next.boost.remainingSeconds == 40)
    }

    @Test(arguments: [-3_600, 3_600])
    func wallClockJumpDuringABoostChangesNothing(jumpSeconds: Int) async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 120)
        await rig.clock.advance(by: .seconds(30))
        rig.wall.advance(by: .seconds(jumpSeconds))  // the user sets the device time
        #expect(rig.boost.remainingSeconds == 90)
        await rig.clock.advance(by: .seconds(90))
        #expect(rig.ticks == Array((0...120).reversed()))
        #expect(rig.ends == [.finished])
    }

    @Test(arguments: [0, -1, Int.min])
    func zeroOrNegativeDurationEndsARunningBoostAtOnce(duration: Int) async {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 30)
        rig.boost.startCountDown(duration: duration)
        #expect(!rig.boost.isInBoostTime)
        #expect(rig.ends == [.stopped])
        #expect(rig.clock.sleeperCount == 0)
    }

    @Test func zeroDurationWithNoBoostRunningDoesNothing() {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: 0)
        #expect(!rig.boost.isInBoostTime)
        #expect(rig.ends.isEmpty)
    }

    @Test func hugeDurationIsClampedToTheDocumentedMaximum() {
        let rig = BoostTestRig()
        rig.boost.startCountDown(duration: Int.max)
        let maximum = Int(BoostTimeManager.maximumDuration.components.seconds)
        #expect(rig.boost.remainingSeconds == maximum)
        #expect(rig.relaunch().boost.remainingSeconds == maximum, "the persisted end date is representable")
    }

    @Test func startIfIdleRefusesWhileRunningAndRejectsBadDurations() async throws {
        let rig = BoostTestRig()
        #expect(throws: BoostError.invalidDuration(0)) { try rig.boost.startCountDownIfIdle(duration: 0) }
        try rig.boost.startCountDownIfIdle(duration: 30)
        await rig.clock.advance(by: .seconds(5))
        #expect(throws: BoostError.alreadyRunning(remainingSeconds: 25)) {
            try rig.boost.startCountDownIfIdle(duration: 30)
        }
        #expect(rig.boost.remainingSeconds == 25)
    }

    @Test func unreadableBoostDocumentIsReportedAndNoBoostRuns() throws {
        let storage = InMemoryStorage()
        let problem = StorageError.corrupted(
            file: InMemoryStorage.location(forKey: "boost"), keptAt: InMemoryStorage.location(forKey: "boost~kept"),
            reason: "test")
        storage.simulateRecovery(problem, forKey: "boost")
        let rig = BoostTestRig(storage: storage)
        #expect(!rig.boost.isInBoostTime)
        #expect(rig.reports.values == [.storageRecovered(problem)])
    }

    /// One spec for the production manager and its stub.
    @Test func stubMatchesProductionForStartsAndStops() async throws {
        let parity = ContractParity<any BoostTimeManagerContract>(
            production: { BoostTestRig().boost },
            stub: { BoostTimeManagerStub(remainingSeconds: 0, center: NotificationCenter()) })
        try await parity.verify { boost in
            var seen: [String] = []
            boost.startCountDown(duration: 42)
            seen.append("\(boost.isInBoostTime) \(boost.remainingSeconds)")
            do { try boost.startCountDownIfIdle(duration: 5) } catch { seen.append("\(error)") }
            boost.stopCountDown()
            seen.append("\(boost.isInBoostTime) \(boost.remainingSeconds)")
            boost.startCountDown(duration: -5)
            seen.append("\(boost.isInBoostTime)")
            return seen
        }
    }

    @Test func scriptedStubStepsAndPostsLikeTheRealManager() {
        let center = NotificationCenter()
        let recorder = ChangeRecorder(center: center)
        let stub = BoostTimeManagerStub(script: [3, 2, 1], center: center)
        stub.advance()
        stub.advance()
        stub.advance()
        #expect(recorder.values(of: .boostTime) == [2, 1, 0])
        #expect(!stub.isInBoostTime)
    }
}
