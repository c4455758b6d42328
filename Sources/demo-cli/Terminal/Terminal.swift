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

    /// Whether `fileDescriptor` is a terminal that can redraw in place: a terminal whose `TERM`
    /// is not `dumb` (a dumb terminal has no cursor movement).
    static func isLive(fileDescriptor: Int32, environment: [String: String]) -> Bool {
        isTerminal(fileDescriptor: fileDescriptor) && environment["TERM"] != "dumb"
    }

    /// The widest output `COLUMNS` may name; a larger or non-numeric value is ignored.
    static let widthRange = 1...10_000

    /// The width in columns of the terminal on `fileDescriptor` (`TIOCGWINSZ`), else
    /// `$COLUMNS` when it is a whole number in ``widthRange``, else `nil`.
    static func width(fileDescriptor: Int32, environment: [String: String]) -> Int? {
        if isTerminal(fileDescriptor: fileDescriptor), let columns = windowColumns(fileDescriptor), columns > 0 {
            return min(columns, widthRange.upperBound)
        }
        guard let text = environment["COLUMNS"], let columns = Int(text), widthRange.contains(columns) else { return nil }
        return columns
    }

    private static func windowColumns(_ fileDescriptor: Int32) -> Int? {
        #if os(Linux) && (canImport(Glibc) || canImport(Musl))
        let request = UInt(0x5413)  // TIOCGWINSZ
        #elseif canImport(Darwin)
        let request = UInt(0x4008_7468)  // TIOCGWINSZ
        #endif
        #if (os(Linux) && (canImport(Glibc) || canImport(Musl))) || canImport(Darwin)
        var size = winsize()
        guard ioctl(fileDescriptor, request, &size) == 0 else { return nil }
        return Int(size.ws_col)
        #else
        return nil
        #endif
    }

    /// `line` cut to `width` columns, so that it never wraps: escape codes take no column and are
    /// kept; a cut line ends with a colour reset when it had any escape code.
    ///
    /// Each character counts as one column (the frames use box-drawing characters and ASCII).
    static func fit(_ line: String, width: Int?) -> String {
        guard let width else { return line }
        var result = ""
        var columns = 0
        var hasEscapes = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "\u{1B}" {
                // An escape sequence: ESC [ parameters… final byte (or ESC and one character).
                var end = line.index(after: index)
                if end < line.endIndex, line[end] == "[" {
                    end = line.index(after: end)
                    while end < line.endIndex, !(line[end].asciiValue.map { (0x40...0x7E).contains($0) } ?? false) {
                        end = line.index(after: end)
                    }
                }
                if end < line.endIndex { end = line.index(after: end) }
                result += line[index..<end]
                hasEscapes = true
                index = end
                continue
            }
            if columns >= max(width, 0) {
                return result + (hasEscapes ? "\u{1B}[0m" : "")
            }
            result.append(character)
            columns += 1
            index = line.index(after: index)
        }
        return result
    }

    /// The text that replaces the `previousLineCount` lines last drawn with `lines`, in place.
    ///
    /// - Parameter width: The terminal's width: longer lines are cut to it (see ``fit(_:width:)``),
    ///   since a line that wraps takes two rows and the next redraw would start too low.
    static func redraw(_ lines: [String], previousLineCount: Int, width: Int? = nil) -> String {
        var text = previousLineCount > 0 ? cursorUp(previousLineCount) : ""
        for line in lines {
            text += eraseLine + fit(line, width: width) + "\n"
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
