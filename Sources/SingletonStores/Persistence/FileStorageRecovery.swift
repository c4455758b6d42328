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

    /// Reads the document of `key`: its value, or what is wrong with it. Nothing is moved.
    ///
    /// - Throws: When the document could not be read at all (it is left as it is).
    func readDocument<Value: Codable>(_ type: Value.Type, file: URL) throws(StorageError) -> (
        value: Value?, problem: DocumentProblem?
    ) {
        switch DocumentCoding.decode(Value.self, from: try DocumentFile.contents(of: file)) {
        case .missing: (nil, nil)
        case .value(let value): (value, nil)
        case .bad(let problem): (nil, problem)
        }
    }

    /// Moves the bad document `file` aside and returns the report naming where it went.
    ///
    /// Call only while holding the key's lock.
    func keepAside(_ file: URL, key: String, problem: DocumentProblem) throws(StorageError) -> StorageError {
        let kept = try freeKeptName(for: file, key: key, problem: problem)
        if let failure = DocumentFile.renameItem(file, to: kept) {
            throw .keepAsideFailed(file: file, reason: "\(problem.summary); moving it to \(kept.filePath) failed: \(failure)")
        }
        return report(problem, file: file, keptAt: kept)
    }

    /// Writes `data` as the document of `key`. When the current document is bad (`problem`),
    /// it is moved aside and the new one put in its place as one step: if the write fails, the
    /// bad document is back where it was.
    ///
    /// Call only while holding the key's lock.
    ///
    /// - Returns: The report of the bad document that was moved aside, if any.
    /// - Throws: ``StorageError/writeFailed(file:reason:)`` when nothing changed. In the one
    ///   case where the bad document was moved aside, the new one could not be put in its place
    ///   and the bad one could not be moved back, the report of the move is thrown instead.
    func write(_ data: Data, to file: URL, key: String, replacing problem: DocumentProblem?) throws(StorageError) -> StorageError?
    {
        let temporary = temporaryURL(forKey: key)
        FaultInjection.reach(.willWrite(key))
        try DocumentFile.writeTemporary(data, at: temporary, for: file)
        FaultInjection.reach(.temporaryWritten(key))
        var recovery: StorageError?
        if let problem {
            do { recovery = try keepAside(file, key: key, problem: problem) } catch {
                DocumentFile.remove(temporary)
                throw error
            }
        }
        guard let failure = DocumentFile.renameItem(temporary, to: file) else {
            FaultInjection.reach(.didWrite(key))
            return recovery
        }
        DocumentFile.remove(temporary)
        if let recovery, let kept = recovery.keptFile, DocumentFile.renameItem(kept, to: file) != nil {
            // The bad document could not be put back either: what is true on disk now is that
            // it was moved aside and there is no document, as the report says.
            throw recovery
        }
        throw .writeFailed(file: file, reason: failure)
    }

    /// A name `<key>~<tag>-<UTC time>[-n].json` no file has, for keeping `file` aside.
    ///
    /// Call only while holding the key's lock (it makes the free-name check race-free: no
    /// other store's files contain `~` followed by this key's names).
    private func freeKeptName(for file: URL, key: String, problem: DocumentProblem) throws(StorageError) -> URL {
        let stamp = Self.timestamp(now())
        for attempt in 1...1_000 {
            let suffix = attempt == 1 ? "" : "-\(attempt)"
            let kept = folder.appending(path: "\(key)~\(problem.tag)-\(stamp)\(suffix).json", directoryHint: .notDirectory)
            if !DocumentFile.exists(kept) { return kept }
        }
        throw .keepAsideFailed(
            file: file, reason: "\(problem.summary); too many kept files are named \(key)~\(problem.tag)-\(stamp)")
    }

    /// The report for a bad document moved from `file` to `kept`.
    private func report(_ problem: DocumentProblem, file: URL, keptAt kept: URL) -> StorageError {
        switch problem {
        case .unreadable(let reason): .unreadable(file: file, keptAt: kept, reason: reason)
        case .corrupted(let reason): .corrupted(file: file, keptAt: kept, reason: reason)
        case .newerFormat(let found): .newerFormat(file: file, found: found, supported: Self.formatVersion, keptAt: kept)
        }
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
