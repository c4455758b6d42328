import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error, written with `write(2)`: a failed write (a full disk, a
/// closed descriptor, a reader that went away) is recorded, never a crash.
///
/// Writes are serialised on one queue, so once ``close(after:)`` has written its text nothing
/// else reaches the terminal, even from a showcase frame being drawn at that very moment. After
/// the first failure, later writes are dropped; ``failure`` says what went wrong, and the
/// program ends with ``ExitStatus/outputFailed``.
final class StandardStream: @unchecked Sendable {
    /// The file descriptor written to.
    let descriptor: Int32
    private let queue: DispatchQueue
    /// Only read and written on `queue`.
    private var isClosed = false
    /// The `errno` of the first failed write; only read and written on `queue`.
    private var failedWith: Int32?

    /// A stream on `descriptor`; `failure` marks it failed from the start (a descriptor that
    /// was closed when the process started).
    init(descriptor: Int32, failure: Int32? = nil) {
        self.descriptor = descriptor
        self.failedWith = failure
        queue = DispatchQueue(label: "demo-cli.stream-\(descriptor)")
    }

    /// Writes `text`, unless the stream was closed or a write failed before.
    func write(_ text: String) {
        queue.sync {
            guard !isClosed else { return }
            send(text)
        }
    }

    /// Writes `text` as the very last output: later writes are dropped.
    func close(after text: String) {
        queue.sync {
            guard !isClosed else { return }
            isClosed = true
            send(text)
        }
    }

    /// Why the first failed write failed (`No space left on device`), or `nil`.
    var failure: String? {
        queue.sync { failedWith.map(Self.describe) }
    }

    /// Only on `queue`.
    private func send(_ text: String) {
        guard failedWith == nil else { return }
        failedWith = Self.writeAll(Array(text.utf8), to: descriptor)
    }

    /// Writes every byte of `bytes`, retrying interrupted and partial writes.
    ///
    /// - Returns: `nil`, or the `errno` of the write that failed.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                let code = written < 0 ? errno : EIO
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    // A non-blocking descriptor that is full: wait until it takes more.
                    var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    if poll(&request, 1, -1) >= 0 || errno == EINTR { continue }
                }
                return code
            }
            return nil
        }
    }

    /// `strerror(code)`, e.g. `Broken pipe`.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    private static func systemWrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, base, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, base, count)
        #else
        Darwin.write(descriptor, base, count)
        #endif
    }
}

/// The process's three standard descriptors at launch.
enum StandardDescriptors {
    /// Makes sure descriptors 0, 1 and 2 are open before anything else opens a file.
    ///
    /// A descriptor the shell closed (`>&-`, `2>&-`) would otherwise be handed to the next file
    /// opened — a store's document or lock — and the program's output would land in it. Each
    /// closed one is opened on `/dev/null` instead.
    ///
    /// - Returns: The descriptors that were closed.
    static func claim() -> Set<Int32> {
        var closed: Set<Int32> = []
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            closed.insert(descriptor)
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            // `open` returns the lowest free descriptor: this one, since the lower ones are open.
            if opened >= 0, opened != descriptor {
                _ = dup2(opened, descriptor)
                _ = close(opened)
            }
        }
        return closed
    }
}
