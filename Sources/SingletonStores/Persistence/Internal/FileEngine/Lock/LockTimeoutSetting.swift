#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

extension FileStorage {
    /// The lock timeout `environment` sets, or the default.
    static func lockTimeout(in environment: [String: String]) -> Duration {
        lockTimeoutSetting(in: environment).timeout
    }

    /// The lock timeout `environment` sets — a number of seconds clamped to zero through
    /// ``maximumLockTimeout`` (`inf` is the maximum, as `1e308` is) — or the default; and the
    /// text of the variable when it was set to something else (empty, `abc`, `nan`), which is
    /// ignored.
    static func lockTimeoutSetting(in environment: [String: String]) -> (timeout: Duration, ignored: String?) {
        guard let text = environment[lockTimeoutEnvironmentVariable] else { return (defaultLockTimeout, nil) }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), !seconds.isNaN else {
            return (defaultLockTimeout, text)
        }
        let maximum = Double(maximumLockTimeout.components.seconds)
        return (.milliseconds(Int64((min(max(seconds, 0), maximum) * 1000).rounded())), nil)
    }

    /// Reports ``StorageNotice/lockTimeoutIgnored(value:)`` for `text` to `report`, once per
    /// process and text.
    static func reportIgnoredLockTimeout(_ text: String, report: @Sendable (StorageNotice) -> Void) {
        let first = reportedLockTimeouts.withLock { $0.insert(text).inserted }
        if first { report(.lockTimeoutIgnored(value: text)) }
    }

    /// The ignored lock-timeout texts reported so far in this process.
    private static let reportedLockTimeouts = Locked<Set<String>>([])

    /// `timeout` within zero and ``maximumLockTimeout``.
    static func clampedLockTimeout(_ timeout: Duration) -> Duration {
        min(max(timeout, .zero), maximumLockTimeout)
    }
}
