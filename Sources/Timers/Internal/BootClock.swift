#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Which boot of the device this is, and how long it has been up: a time line that neither the
/// user nor the network can set, and that survives a relaunch of the app (but not a restart of
/// the device).
///
/// A countdown that must survive a relaunch records its end on this time line beside its
/// wall-clock end date. Relaunched on the same boot, it reads the time left from here, so
/// setting the date back cannot stretch it; after a restart, only the wall clock is left.
///
/// On Linux the boot is `/proc/sys/kernel/random/boot_id` and the time `CLOCK_BOOTTIME` (which
/// counts while the device sleeps). Elsewhere it is ``unavailable`` for now, and countdowns rely
/// on the wall clock across relaunches.
package struct BootClock: Sendable {
    /// The id of this boot, or `nil` when the platform doesn't tell.
    package var bootID: @Sendable () -> String?
    /// The time since the device started, or `nil` when the platform doesn't tell.
    package var sinceBoot: @Sendable () -> Duration?

    /// A boot clock reading from the two closures.
    package init(bootID: @escaping @Sendable () -> String?, sinceBoot: @escaping @Sendable () -> Duration?) {
        self.bootID = bootID
        self.sinceBoot = sinceBoot
    }

    /// The device's own: on Linux, the kernel's boot id and `CLOCK_BOOTTIME`.
    package static let system: BootClock = {
        #if canImport(Glibc) || canImport(Musl)
        let id = systemBootID
        return BootClock(bootID: { id }, sinceBoot: { id == nil ? nil : bootTime() })
        #else
        return .unavailable
        #endif
    }()

    /// A boot clock that knows nothing: countdowns then rely on the wall clock alone.
    package static let unavailable = BootClock(bootID: { nil }, sinceBoot: { nil })

    #if canImport(Glibc) || canImport(Musl)
    /// This boot's id, read once: 36 characters of hexadecimal digits and hyphens, or `nil`.
    private static let systemBootID: String? = {
        guard let data = FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id"),
            let text = String(data: data.prefix(64), encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            (1...64).contains(text.count),
            text.unicodeScalars.allSatisfy({ $0 == "-" || $0.properties.isASCIIHexDigit })
        else { return nil }
        return text
    }()

    /// `CLOCK_BOOTTIME` now, or `nil` if it can't be read.
    private static func bootTime() -> Duration? {
        var spec = timespec()
        guard clock_gettime(CLOCK_BOOTTIME, &spec) == 0 else { return nil }
        return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
    }
    #endif
}
