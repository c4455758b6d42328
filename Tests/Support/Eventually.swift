import Foundation

/// Checks `condition` every few milliseconds until it holds or `seconds` have passed; whether
/// it held. For news that arrives from another thread or process: the deadline only bounds a
/// failing test, a passing one returns as soon as the condition holds.
package func eventually(within seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        usleep(2_000)
    }
    return true
}

/// ``eventually(within:_:)`` for async tests: checks between short sleeps that leave the
/// thread to other tasks.
package func waitUntil(within seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}
