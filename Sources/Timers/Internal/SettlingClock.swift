/// A clock that can tell when the tasks it drives have finished their turn.
///
/// ``ManualClock`` conforms so that a timer's task, started just before a test advances the
/// clock, is given the chance to go to sleep before the clock moves on. Timers of this module
/// (and the coalesced writes of the SingletonStores kit) announce their tasks through it; other
/// clocks ignore the calls.
package protocol SettlingClock: Sendable {
    /// A timer is about to start a task that will sleep on this clock.
    func willStartTask()

    /// Called from inside the announced task, first thing.
    func taskDidStart()

    /// Called from inside a task that will not sleep on this clock any more.
    func taskDidFinish()
}
