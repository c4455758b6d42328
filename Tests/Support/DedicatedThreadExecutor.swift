import Dispatch
import Foundation
import SingletonStoresLocking

/// A task executor with a thread of its own, for the few tests that measure how fast something
/// resumes on the real clock.
///
/// Tests run in parallel and some of them block threads, so a task on the shared cooperative
/// pool may wait for a free thread far longer than the code under test takes. Tasks that prefer
/// this executor (`Task(executorPreference:)`) — and the default actors they call — run on its
/// thread instead, so a timing depends only on the code measured and the operating system.
///
/// ```swift
/// let executor = DedicatedThreadExecutor()
/// defer { executor.stop() }
/// let waiter = Task(executorPreference: executor) { await work() }
/// ```
public final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only touched under its lock; `wake` is a semaphore.
    private let jobs = Locked<(queue: [UnownedJob], stopped: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)

    /// Starts the executor's thread.
    public init() {
        let thread = Thread { [self] in run() }
        thread.name = "DedicatedThreadExecutor"
        thread.start()
    }

    /// Runs `job` on the executor's thread, after the jobs enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.queue.append(unowned) }
        wake.signal()
    }

    /// Lets the thread end once the jobs enqueued so far have run.
    public func stop() {
        jobs.withLock { $0.stopped = true }
        wake.signal()
    }

    private func run() {
        while true {
            wake.wait()
            let (batch, stopped) = jobs.withLock { state -> ([UnownedJob], Bool) in
                defer { state.queue.removeAll() }
                return (state.queue, state.stopped)
            }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            if stopped { return }
        }
    }
}
