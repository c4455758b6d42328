import Foundation
import SingletonStores
import StoreObservation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A profile-sized document: what a persisted store of an app typically holds. The cost
/// benchmarks' persisted row and `bench-probe persisted` write it.
public struct ProfileDocument: Codable, Sendable, Equatable {
    public var nickname = "Aki"
    public var genderCode: Int? = 2
    public var birthYear = 1990
    public var isBetaUser = false
    public var revision = 0

    /// The document a new store starts from.
    public init() {}
}

extension NotificationChannel where Payload == StoreChange<ProfileDocument> {
    /// The benchmark profile's changes, in the cost benchmarks.
    public static let costProfile = NotificationChannel("CostBenchmarks.profile.changed")
    /// The benchmark profile's changes, in `bench-probe`.
    static let probeProfile = NotificationChannel("BenchProbe.profile.changed")
}

/// One persisted update (`persisted`) and the same bytes written by hand (`persisted-limit`),
/// in a fresh folder under the temporary folder, for `strace` and callgrind: the loop of the
/// cost benchmarks' persisted row without its timing.
enum PersistedFixture {
    /// A folder of its own for one probe run (left behind: the probe is a diagnostic tool).
    static func makeFolder() -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appending(path: "bench-probe-\(getpid())-persisted", directoryHint: .isDirectory)
        try? FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// `PersistentStoreCore.update` of the profile, `n` times.
    static func ours() -> MeasuredOperation {
        let folder = makeFolder()
        let store = PersistentStoreCore(
            key: "profile", default: ProfileDocument(), storage: FileStorage(folder: folder), channel: .probeProfile,
            center: NotificationCenter(), watching: .off)
        _ = try? store.update { $0.nickname = "Mei" }
        return MeasuredOperation { n in
            for _ in 0..<n { _ = try? store.update { $0.revision += 1 } }
        }
    }

    /// The document's bytes written by hand: temporary file, fsync, rename; `n` times.
    static func limit() -> MeasuredOperation {
        let folder = makeFolder()
        // The bytes the store writes for the profile (159 bytes), whatever their content.
        let bytes = Data(repeating: UInt8(ascii: " "), count: 159)
        let target = folder.appending(path: "limit.json").path
        let temporary = folder.appending(path: ".limit.tmp").path
        return MeasuredOperation { n in
            for _ in 0..<n {
                let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { return }
                _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                _ = fsync(descriptor)
                close(descriptor)
                _ = rename(temporary, target)
            }
        }
    }
}
