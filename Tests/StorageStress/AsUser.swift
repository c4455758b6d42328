// storage-stress as-user <uid|-> <umask|-> <folder> <step>…
//
// Runs storage steps in this process after switching to another user and umask, for the tests
// that need what the test process can't do to itself: run without root's permission bypass,
// with a narrow umask, or with few file descriptors. One line per step goes to standard output
// at the end (descriptors may be exhausted meanwhile):
//   load: ok count=<n> stored=<bool>       load: error <case>: <description>
//   update: ok count=<n>                   update: error <case>: <description>
// Steps: load, update (count += 1 on the document "counter"), limit-descriptors (RLIMIT_NOFILE
// lowered to 64), exhaust-descriptors (open /dev/null until none is left), free-one-descriptor,
// free-descriptors. Storage notices go to standard error as usual.
// Exit status: 0 when every step ran (whatever it returned), 2 on bad arguments, 3 when the
// user or the limit could not be changed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresTestSupport
import Stores

/// The document the steps read and change.
/// Runs `storage-stress as-user …` (the arguments after `as-user`); returns the exit status.
func runAsUser(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 3 else {
        FileHandle.standardError.write(Data("usage: storage-stress as-user <uid|-> <umask|-> <folder> <step>…\n".utf8))
        return 2
    }
    if arguments[1] != "-" {
        guard let mask = mode_t(arguments[1], radix: 8) else { return 2 }
        umask(mask)
    }
    if arguments[0] != "-" {
        guard let uid = uid_t(arguments[0]) else { return 2 }
        // Drop supplementary groups, then the group, then the user (after which none can be changed back).
        guard setgroups(0, nil) == 0, setgid(gid_t(uid)) == 0, setuid(uid) == 0 else {
            FileHandle.standardError.write(
                Data("storage-stress: could not become uid \(uid): \(String(cString: strerror(errno)))\n".utf8))
            return 3
        }
    }
    let storage = FileStorage(folder: URL(filePath: arguments[2], directoryHint: .isDirectory))
    var lines: [String] = []
    var spare: [Int32] = []
    defer { spare.forEach { close($0) } }
    for step in arguments.dropFirst(3) {
        switch step {
        case "load":
            do {
                let loaded = try storage.load(StoreDocument(key: "counter", default: PersistedCounter()))
                lines.append("load: ok count=\(loaded.value.count) stored=\(loaded.isStored)")
            } catch {
                lines.append("load: error \(caseName(error)): \(error)")
            }
        case "update":
            do {
                let update = try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) {
                    $0.count += 1
                }
                lines.append("update: ok count=\(update.value.count)")
            } catch {
                lines.append("update: error \(caseName(error)): \(error)")
            }
        case "limit-descriptors":
            var limit = rlimit()
            getrlimit(resourceLimitNoFile, &limit)
            limit.rlim_cur = 64
            if setrlimit(resourceLimitNoFile, &limit) != 0 { return 3 }
        case "exhaust-descriptors":
            while true {
                let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
                if descriptor < 0 { break }
                spare.append(descriptor)
            }
        case "free-one-descriptor":
            if let descriptor = spare.popLast() { close(descriptor) }
        case "free-descriptors":
            spare.forEach { close($0) }
            spare = []
        default:
            FileHandle.standardError.write(Data("storage-stress: unknown step \(step)\n".utf8))
            return 2
        }
    }
    spare.forEach { close($0) }
    spare = []
    FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    return 0
}

/// `RLIMIT_NOFILE` as `setrlimit` takes it on this C library.
#if canImport(Glibc)
private let resourceLimitNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
private let resourceLimitNoFile = RLIMIT_NOFILE
#endif

/// The name of a ``StorageError`` case ("readFailed"), or the type of another error.
private func caseName(_ error: any Error) -> String {
    guard let storage = error as? StorageError else { return "\(type(of: error))" }
    return Mirror(reflecting: storage).children.first?.label ?? "\(storage)"
}
