import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Terminal escape codes and the process-level terminal duties: hiding the cursor while the
/// showcase redraws, and giving it back on exit and on Ctrl-C.
enum Terminal {
    /// Hides the cursor.
    static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor.
    static let showCursor = "\u{1B}[?25h"
    /// Erases the line the cursor is on.
    static let eraseLine = "\u{1B}[2K"

    /// Moves the cursor to the start of the line `count` lines up.
    static func cursorUp(_ count: Int) -> String {
        count > 0 ? "\u{1B}[\(count)F" : "\r"
    }

    /// Whether `fileDescriptor` is a terminal.
    static func isTerminal(fileDescriptor: Int32) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        isatty(fileDescriptor) == 1
        #else
        false
        #endif
    }

    /// The text that replaces the `previousLineCount` lines last drawn with `lines`, in place.
    static func redraw(_ lines: [String], previousLineCount: Int) -> String {
        var text = previousLineCount > 0 ? cursorUp(previousLineCount) : ""
        for line in lines {
            text += eraseLine + line + "\n"
        }
        return text
    }
}

/// Catches Ctrl-C for a live display: restores the terminal and exits, with status 130 by
/// default.
///
/// ```swift
/// let trap = InterruptTrap.install { console.writeLast(Terminal.showCursor) }
/// defer { trap.cancel() }
/// ```
///
/// A view that runs until Ctrl-C by design (`boost watch`, `profile show --watch`) passes
/// ``ExitStatus/success``: there, Ctrl-C is how the user says "done", not an interruption.
final class InterruptTrap {
    private let source: any DispatchSourceSignal

    private init(source: any DispatchSourceSignal) {
        self.source = source
    }

    /// Ignores SIGINT's default action and, when it arrives, runs `restore` then exits with
    /// `status`.
    ///
    /// - Parameters:
    ///   - status: The exit status after Ctrl-C: ``ExitStatus/interrupted`` (130) by default.
    ///   - restore: Gives the terminal back (shows the cursor); runs once, before exiting.
    static func install(
        exitingWith status: ExitStatus = .interrupted, restore: @escaping @Sendable () -> Void
    ) -> InterruptTrap {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "demo-cli.sigint"))
        source.setEventHandler {
            restore()
            exit(status.rawValue)
        }
        // `resume()` arms the source asynchronously; a Ctrl-C before it is armed would be lost
        // (SIGINT is already ignored). Return only once it is registered, so that from here on
        // every Ctrl-C is caught.
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.resume()
        registered.wait()
        return InterruptTrap(source: source)
    }

    /// Stops catching Ctrl-C; its default action (ending the process) is back.
    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
