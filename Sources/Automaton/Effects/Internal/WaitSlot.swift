import Synchronization

/// Where one waiting task's continuation is kept, so that either the automaton (when the
/// effects end) or the task's cancellation handler (on whichever thread cancels it) can resume
/// it — exactly once, and without waiting for the automaton's actor.
final class WaitSlot: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Void, Never>)
        case done
    }

    private let state = Mutex(State.empty)

    /// Keeps `continuation` until ``resume()``; resumes it at once if the slot is already done
    /// (the task was cancelled before it began to wait).
    func wait(with continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = state.withLock { state -> Bool in
            guard case .empty = state else { return true }
            state = .waiting(continuation)
            return false
        }
        if resumeNow { continuation.resume() }
    }

    /// Resumes the waiting task, if it waits; later calls do nothing.
    func resume() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .done }
            guard case .waiting(let continuation) = state else { return nil }
            return continuation
        }
        continuation?.resume()
    }
}
