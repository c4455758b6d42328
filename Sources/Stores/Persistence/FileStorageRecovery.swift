import Foundation

extension FileStorage {
    /// The lock file that serialises writers of the store named `key` (already validated).
    func lockURL(forKey key: String) -> URL {
        folder.appending(path: "\(key).lock", directoryHint: .notDirectory)
    }

    /// A fresh temporary file name for writing the document of `key`.
    func temporaryURL(forKey key: String) -> URL {
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return folder.appending(path: "\(key)~\(id).tmp", directoryHint: .notDirectory)
    }

    /// Removes temporary files of `key` left by a writer that was killed mid-write.
    ///
    /// Call only while holding the key's lock: every live writer of `key` holds it while its
    /// temporary file exists, so any found now is stale. Only names of the exact form
    /// `<key>~<32 hex digits>.tmp` are touched.
    func removeStaleTemporaries(forKey key: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.filePath) else { return }
        let prefix = "\(key)~"
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let id = name.dropFirst(prefix.count).dropLast(".tmp".count)
            guard id.count == 32, id.allSatisfy(\.isHexDigit) else { continue }
            DocumentFile.remove(folder.appending(path: name, directoryHint: .notDirectory))
        }
    }

    /// Reads the document of `key`; a bad one is moved aside and reported.
    ///
    /// Call only while holding the key's lock.
    func readRecovering<Value: Codable>(
        _ type: Value.Type, key: String, file: URL
    ) throws(StorageError) -> (value: Value?, recovery: StorageError?) {
        switch DocumentCoding.decode(Value.self, from: DocumentFile.contents(of: file), supportedVersion: Self.formatVersion) {
        case .missing:
            return (nil, nil)
        case .value(let value):
            return (value, nil)
        case .bad(let problem):
            let kept = try keepAside(file, key: key, tag: problem.tag)
            switch problem {
            case .unreadable(let reason):
                return (nil, .unreadable(file: file, keptAt: kept, reason: reason))
            case .corrupted(let reason):
                return (nil, .corrupted(file: file, keptAt: kept, reason: reason))
            case .newerFormat(let found):
                return (nil, .newerFormat(file: file, found: found, supported: Self.formatVersion, keptAt: kept))
            }
        }
    }

    /// Renames `file` to `<key>~<tag>-<UTC time>[-n].json`, never replacing an existing file.
    ///
    /// Call only while holding the key's lock (it makes the free-name check race-free: no
    /// other store's files contain `~` followed by this key's names).
    func keepAside(_ file: URL, key: String, tag: String) throws(StorageError) -> URL {
        let stamp = Self.timestamp(now())
        for attempt in 1...1_000 {
            let suffix = attempt == 1 ? "" : "-\(attempt)"
            let kept = folder.appending(path: "\(key)~\(tag)-\(stamp)\(suffix).json", directoryHint: .notDirectory)
            if DocumentFile.exists(kept) { continue }
            try DocumentFile.move(file, to: kept)
            return kept
        }
        throw .writeFailed(file: file, reason: "it could not be moved aside: too many kept files named \(key)~\(tag)-\(stamp)")
    }

    /// `date` as `yyyyMMdd'T'HHmmss'Z'` in UTC, for file names.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ",
            parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0
        )
    }
}
