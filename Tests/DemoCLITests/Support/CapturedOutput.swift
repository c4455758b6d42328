import Synchronization
@testable import demo_cli

/// Collects what a ``Console`` writes, for in-process tests.
final class CapturedOutput: Sendable {
    private let out = Mutex("")
    private let err = Mutex("")

    var standardOutput: String { out.withLock { $0 } }
    var standardError: String { err.withLock { $0 } }

    func console(isTerminal: Bool, usesColor: Bool = false, width: Int? = nil) -> Console {
        Console(
            write: { text in self.out.withLock { $0 += text } },
            writeError: { text in self.err.withLock { $0 += text } },
            isTerminal: isTerminal, usesColor: usesColor, width: width)
    }
}
