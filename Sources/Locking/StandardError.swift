#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `line` and a newline to standard error, without Foundation and without the global
/// `stderr` stream (which Swift 6 rejects as not concurrency-safe). Every module's default issue
/// reporter prints through it.
package func writeLineToStandardError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = write(STDERR_FILENO, base + offset, buffer.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
