import Foundation
import SingletonStores
import Stores
import Testing

/// `start(duration:)` and `stop()` throw a failed save instead of reporting it: a caller can
/// tell the user the boost did not start or stop.
@Suite struct BoostSaveFailureTests {
    private static let failure = StorageError.writeFailed(
        file: InMemoryStorage.location(forKey: "boost"), reason: "No space left on device")

    @Test func aStartThatWasNotSavedThrowsAndStartsNothing() {
        let rig = BoostTestRig()
        rig.storage.simulateWriteFailure(Self.failure, forKey: "boost")
        #expect(throws: Self.failure) { try rig.boost.start(duration: 60) }
        #expect(!rig.boost.isInBoostTime)
        #expect(rig.reports.values.isEmpty, "thrown, not reported")
    }

    @Test func aStopThatWasNotSavedThrowsAndTheBoostKeepsRunning() throws {
        let rig = BoostTestRig()
        try rig.boost.start(duration: 60)
        rig.storage.simulateWriteFailure(Self.failure, forKey: "boost")
        #expect(throws: Self.failure) { try rig.boost.stop() }
        #expect(rig.boost.remainingSeconds == 60)
        rig.storage.simulateWriteFailure(nil, forKey: "boost")
        try rig.boost.stop()
        #expect(!rig.boost.isInBoostTime)
        #expect(rig.ends == [.stopped])
    }

    @Test func theOldCallsStillReportTheFailure() {
        let rig = BoostTestRig()
        rig.storage.simulateWriteFailure(Self.failure, forKey: "boost")
        rig.boost.startCountDown(duration: 60)
        #expect(!rig.boost.isInBoostTime)
        #expect(rig.reports.values == [.storageRecovered(Self.failure)])
    }
}
