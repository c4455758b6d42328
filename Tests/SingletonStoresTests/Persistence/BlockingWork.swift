import Foundation

/// Runs `body(0)`, …, `body(count - 1)` at once, each on a thread of its own, and returns when
/// all have finished.
///
/// File locks block the calling thread; on dedicated threads they can't starve the small
/// cooperative pool that the other tests, running in parallel, depend on.
func onSeparateThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for index in 0..<count {
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Thread {
                        body(index)
                        continuation.resume()
                    }.start()
                }
            }
        }
    }
}
