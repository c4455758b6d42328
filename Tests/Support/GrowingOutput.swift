import Foundation

/// What a running child has written so far on one stream, collected by a thread of its own as it
/// comes, so that a test can wait for a line without a fixed sleep.
package final class GrowingOutput: @unchecked Sendable {
    // `bytes` and `closed` are read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var closed = false

    /// Starts a thread that calls `read` until it returns no bytes (the stream was closed).
    package init(reading read: @escaping @Sendable () -> [UInt8]) {
        let thread = Thread { [self] in
            while true {
                let chunk = read()
                condition.lock()
                if chunk.isEmpty { closed = true } else { bytes += chunk }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
        thread.start()
    }

    /// Everything written so far.
    package var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits until `holds` is true of everything written so far, the stream closes, or
    /// `timeout` passes; whether it held.
    package func wait(timeout: Duration, until holds: (String) -> Bool) -> Bool {
        let deadline = Date.now.addingTimeInterval(
            Double(timeout.components.seconds) + 1e-18 * Double(timeout.components.attoseconds))
        condition.lock()
        defer { condition.unlock() }
        while true {
            if holds(String(decoding: bytes, as: UTF8.self)) { return true }
            if closed || !condition.wait(until: deadline) {
                return holds(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    /// Whether the stream was closed (the writer exited or closed it).
    package var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    /// Waits until the stream is closed (the child exited), or `timeout` passes.
    package func waitUntilClosed(timeout: Duration) -> Bool {
        _ = wait(timeout: timeout) { _ in false }
        return isClosed
    }
}
