import Dispatch
import Foundation
import SingletonStoresLocking

/// A task executor with a thread of its own: for tests that block a thread (waiting on a child
/// process, a thread or a file) and for the few that measure how fast something resumes.
///
/// Tests run in parallel on the shared cooperative pool, which has one thread per core. A test
/// that blocks one of those threads for seconds stalls every other test with it, and a task on
/// the pool may then wait for a free thread far longer than the code under test takes. Tasks
/// that prefer this executor (`Task(executorPreference:)`, `withTaskExecutorPreference`) — and
/// the default actors they call — run on its thread instead. ``OwnThreadTrait`` runs whole
/// tests this way.
///
/// ```swift
/// let executor = DedicatedThreadExecutor()
/// defer { executor.stop() }
/// let waiter = Task(executorPreference: executor) { await work() }
/// ```
public final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `state` is only touched under its lock; `wake` is a semaphore.
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)

    private struct State {
        var queue: [UnownedJob] = []
        var stopped = false
        var ended = false
    }

    private enum Step {
        case run([UnownedJob])
        case wait
        case end
    }

    /// Starts the executor's thread, named `name` (as debuggers and `top -H` show it).
    public init(name: String = "DedicatedThreadExecutor") {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the executor's thread, after the jobs enqueued before it. A job that
    /// arrives after the thread ended runs on a global dispatch queue instead, so a late
    /// resumption (a continuation resumed after the test) is never lost.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let accepted = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            state.queue.append(unowned)
            return true
        }
        if accepted {
            wake.signal()
        } else {
            DispatchQueue.global().async {
                unowned.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor())
            }
        }
    }

    /// Lets the thread end once the jobs enqueued so far have run.
    public func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    private func run() {
        while true {
            let step = state.withLock { state -> Step in
                if !state.queue.isEmpty {
                    defer { state.queue.removeAll() }
                    return .run(state.queue)
                }
                guard state.stopped else { return .wait }
                state.ended = true
                return .end
            }
            switch step {
            case .run(let batch):
                for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            case .wait:
                wake.wait()
            case .end:
                return
            }
        }
    }
}
