import SingletonStoresTestSupport
#if os(Linux) && canImport(Glibc)
import Glibc
import Foundation
import Testing

/// The showcase with its output on a pseudo-terminal: redrawn in place, cursor hidden and given
/// back, colour unless `NO_COLOR`.
@Suite("Showcase on a terminal", .hangLimit, .ownThread)
struct TerminalBinaryTests {
    /// A pseudo-terminal pair: the child writes to `follower`, the test reads `leader`.
    struct PseudoTerminal {
        let leader: Int32
        let follower: FileHandle

        /// Linux's `TIOCSPTLCK` and `TIOCGPTN` (Glibc does not import `posix_openpt`).
        private static let unlockRequest = UInt(0x4004_5431)
        private static let numberRequest = UInt(0x8004_5430)

        init() throws {
            let leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            try #require(leader >= 0, "could not open /dev/ptmx")
            var unlock: CInt = 0
            var number: CUnsignedInt = 0
            try #require(ioctl(leader, Self.unlockRequest, &unlock) == 0, "could not unlock the pseudo-terminal")
            try #require(ioctl(leader, Self.numberRequest, &number) == 0, "could not name the pseudo-terminal")
            let name = "/dev/pts/\(number)"
            let follower = open(name, O_RDWR | O_NOCTTY)
            try #require(follower >= 0, "could not open \(name)")
            self.leader = leader
            self.follower = FileHandle(fileDescriptor: follower, closeOnDealloc: true)
        }

        /// Reads until the child's side is closed (`read` fails with EIO or returns 0), or until
        /// `stop` says enough.
        func readAll(until stop: (String) -> Bool = { _ in false }) -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                bytes += buffer[0..<count]
                if stop(String(decoding: bytes, as: UTF8.self)) { break }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    func runOnTerminal(
        _ arguments: [String], environment: [String: String] = [:], columns: Int? = nil,
        interruptWhen: ((String) -> Bool)? = nil
    ) throws -> (output: String, status: Int32) {
        try withDemoBinary { binary in
            let terminal = try PseudoTerminal()
            defer { close(terminal.leader) }
            if let columns {
                var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
                try #require(ioctl(terminal.leader, UInt(0x5414), &size) == 0, "could not set the width (TIOCSWINSZ)")
            }
            let process = try binary.makeProcess(arguments, environment: environment)
            process.standardOutput = terminal.follower
            process.standardError = FileHandle.nullDevice
            try process.run()
            try terminal.follower.close()
            var output = ""
            if let interruptWhen {
                output = terminal.readAll(until: interruptWhen)
                process.interrupt()
            }
            output += terminal.readAll()
            process.waitUntilExit()
            return (output, process.terminationStatus)
        }
    }

    @Test func showcaseRedrawsInPlaceAndGivesTheCursorBack() throws {
        let (output, status) = try runOnTerminal(["--seconds", "2", "--speed", "10"])
        #expect(status == 0)
        #expect(output.hasPrefix("\u{1B}[?25l"))
        #expect(output.hasSuffix("\u{1B}[?25h"))
        #expect(output.contains("\u{1B}[9F"))  // back up over the 9-line frame
        #expect(output.contains("\u{1B}[32m✓ Both screens show the same time."))
        #expect(!output.contains("✗"))
        #expect(output.contains("The boost is over: the popup closed at 00:00."))
    }

    @Test func noColorKeepsTheRedrawButDropsTheColours() throws {
        let (output, status) = try runOnTerminal(["--seconds", "1", "--speed", "40"], environment: ["NO_COLOR": "1"])
        #expect(status == 0)
        #expect(output.hasPrefix("\u{1B}[?25l") && output.hasSuffix("\u{1B}[?25h"))
        #expect(!output.contains("\u{1B}[32m") && !output.contains("\u{1B}[1m"))
    }

    @Test func aDumbTerminalGetsPlainLinesWithoutCursorMovement() throws {
        let (output, status) = try runOnTerminal(["--seconds", "1", "--speed", "40"], environment: ["TERM": "dumb"])
        #expect(status == 0)
        #expect(!output.contains("\u{1B}"), "\(output.debugDescription)")
        #expect(output.contains("Main screen 00:00 | Boost popup closed"))
    }

    @Test func aNarrowTerminalGetsLinesCutToItsWidth() throws {
        let (output, status) = try runOnTerminal(
            ["--seconds", "1", "--speed", "40"], environment: ["NO_COLOR": "1"], columns: 30)
        #expect(status == 0)
        let visible = output.replacing(#/\u{1B}\[[0-9;?]*[A-Za-z]/#, with: "").replacingOccurrences(of: "\r", with: "")
        for line in visible.split(separator: "\n") {
            #expect(line.count <= 30, "\(line)")
        }
        #expect(visible.contains("┌─ Main screen ───┐   ┌─"))
    }

    @Test func ctrlCGivesTheCursorBackAndExits130() throws {
        let (output, status) = try runOnTerminal(["--seconds", "60"], interruptWhen: { $0.contains("Boost popup") })
        #expect(status == 130)
        #expect(output.hasPrefix("\u{1B}[?25l"))
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("\u{1B}[?25h"))
    }
}
#endif
