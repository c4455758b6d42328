import Testing
import Timers

extension ManualClock {
    /// Yields until `count` tasks sleep on the clock; records an issue if that does not happen
    /// within a generous number of scheduler turns (a bound on turns, not on real time).
    package func waitForSleepers(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        for _ in 0..<100_000 {
            if sleeperCount == count { return }
            await Task.yield()
        }
        Issue.record("expected \(count) sleepers, found \(sleeperCount)", sourceLocation: sourceLocation)
    }
}
