#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The names of temporary files: their ids, and the listing that finds those a killed writer
/// left behind.
enum TemporaryNames {
    /// This process's id, as temporary file names carry it.
    static let processID = ProcessInfo.processInfo.processIdentifier

    /// 16 random hexadecimal digits drawn once per process: with a counter, ids that no other
    /// process (nor an earlier process with the same id) picks.
    private static let processPart: String = hex(UInt64.random(in: .min ... .max))

    private static let counter = Atomic<UInt64>(0)

    /// A fresh id: 32 hexadecimal digits, the process's random part then a counter. The file
    /// is created with `O_EXCL`, so even a clash could never overwrite another file.
    static func next() -> String {
        let (count, _) = counter.add(1, ordering: .relaxed)
        return processPart + hex(count)
    }

    /// `value` as 16 lowercase hexadecimal digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether `name` is exactly the name of a temporary file of the store `key`:
    /// `<key>~<pid>-<32 hex digits>.tmp`, or `<key>~<32 hex digits>.tmp` (older versions).
    static func isTemporaryName(_ name: String, forKey key: String) -> Bool {
        let prefix = "\(key)~"
        guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { return false }
        let stem = name.dropFirst(prefix.count).dropLast(".tmp".count)
        let parts = stem.split(separator: "-", omittingEmptySubsequences: false)
        guard let id = parts.last, id.utf8.count == 32, id.utf8.allSatisfy(isHexDigit) else { return false }
        switch parts.count {
        case 1: return true
        case 2: return !parts[0].isEmpty && parts[0].utf8.allSatisfy { (0x30...0x39).contains($0) }
        default: return false
        }
    }

    /// Whether `byte` is `0`–`9`, `a`–`f` or `A`–`F`.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }

    /// The names in `folder` that start with `prefix` and end with `.tmp`; none when it can't
    /// be listed. Other entries are skipped without being turned into strings.
    static func candidates(in folder: URL, prefix: String) -> [String] {
        candidates(inFolderAt: folder.filePath, prefix: prefix)
    }

    /// ``candidates(in:prefix:)`` of the folder at `path`.
    static func candidates(inFolderAt path: String, prefix: String) -> [String] {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if let code = FileFaults.injected(.listFolder) {
            errno = code
            return []
        }
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        let head = Array(prefix.utf8)
        let tail = Array(".tmp".utf8)
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String? in
                let bytes = raw.prefix { $0 != 0 }
                guard bytes.count >= head.count + tail.count, bytes.starts(with: head),
                    bytes.suffix(tail.count).elementsEqual(tail)
                else { return nil }
                return String(decoding: bytes, as: UTF8.self)
            }
            if let name { names.append(name) }
        }
        return names
        #else
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".tmp") }
        #endif
    }
}
