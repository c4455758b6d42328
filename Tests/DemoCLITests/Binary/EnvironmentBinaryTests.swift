import Foundation
import SingletonStoresTestSupport
import Testing

/// Environment variables the binary reads, set to what they cannot mean.
@Suite("The environment through the binary", .hangLimit, .ownThread)
struct EnvironmentBinaryTests {
    /// A lock timeout that is no number is ignored, and the user is told once (it was ignored
    /// silently); `inf` is the maximum and needs no word.
    @Test(arguments: ["abc", "nan", ""])
    func aLockTimeoutThatIsNoNumberIsReportedOnceAndIgnored(text: String) throws {
        try withDemoBinary { binary in
            let run = try binary.run(["purchase", "buy", "--items", "1"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": text])
            #expect(run.status == 0, "\(run)")
            #expect(run.lines == ["Bought 1 boost item. You own 1 boost item; no premium."])
            #expect(
                run.errorLines == [
                    "demo-cli: warning: SINGLETON_STORES_LOCK_TIMEOUT is set to \"\(text)\", which is not a "
                        + "number of seconds, so it is ignored: a write waits up to 5 seconds for another process's lock. "
                        + "Set it to a number of seconds from 0 to 600, such as 0.5, or unset it."
                ], "\(run)")
        }
    }

    @Test func anInfiniteLockTimeoutIsTheMaximumWithoutAWarning() throws {
        try withDemoBinary { binary in
            let run = try binary.run(["purchase", "show"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": "inf"])
            #expect(run.status == 0 && run.standardError.isEmpty, "\(run)")
        }
    }
}
