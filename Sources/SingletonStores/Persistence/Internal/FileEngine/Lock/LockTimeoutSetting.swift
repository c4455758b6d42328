#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

/// The lock timeout a ``FileStorage`` takes from its environment
/// (``FileStorage/lockTimeoutEnvironmentVariable``), clamped, and the notice of a setting it
/// ignores.
enum LockTimeoutSetting {
    /// The lock timeout `environment` sets — a number of seconds clamped to zero through
    /// ``FileStorage/maximumLockTimeout`` (`inf` is the maximum, as `1e308` is) — or the default; and the
    /// text of the variable when it was set to something else (empty, `abc`, `nan`), which is
    /// ignored.
    static func of(_ environment: [String: String]) -> (timeout: Duration, ignored: String?) {
        guard let text = environment[FileStorage.lockTimeoutEnvironmentVariable] else {
            return (FileStorage.defaultLockTimeout, nil)
        }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), !seconds.isNaN else {
            return (FileStorage.defaultLockTimeout, text)
        }
        let maximum = Double(FileStorage.maximumLockTimeout.components.seconds)
        return (.milliseconds(Int64((min(max(seconds, 0), maximum) * 1000).rounded())), nil)
    }

    /// Reports ``StorageNotice/lockTimeoutIgnored(value:)`` for `text` to `report`, once per
    /// process and text.
    static func reportIgnored(_ text: String, report: @Sendable (StorageNotice) -> Void) {
        let first = reportedLockTimeouts.withLock { $0.insert(text).inserted }
        if first { report(.lockTimeoutIgnored(value: text)) }
    }

    /// The ignored lock-timeout texts reported so far in this process.
    private static let reportedLockTimeouts = Locked<Set<String>>([])

    /// `timeout` within zero and ``FileStorage/maximumLockTimeout``.
    static func clamped(_ timeout: Duration) -> Duration {
        min(max(timeout, .zero), FileStorage.maximumLockTimeout)
    }
}
