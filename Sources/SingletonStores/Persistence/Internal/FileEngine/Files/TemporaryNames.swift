#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import SingletonStoresLocking

/// The names of temporary files — `<key>~w-<lock>-<id>.tmp`: written under a lock on the
/// file itself, with the lock file the writer held, and a fresh id — and the listing that finds
/// those a killed writer left behind. Older versions named them `<key>~<pid>-<lock>-<id>.tmp`,
/// `<key>~<pid>-<id>.tmp` and `<key>~<id>.tmp`, and did not lock them.
enum TemporaryNames {
    /// This process's id, as older versions' temporary file names carry it.
    static let processID = ProcessInfo.processInfo.processIdentifier

    /// 16 random hexadecimal digits drawn once per process: with a counter, ids that no other
    /// process (nor an earlier process with the same id) picks.
    private static let processPart: String = hex(UInt64.random(in: .min ... .max))

    private static let counter = Atomic<UInt64>(0)

    /// A fresh id: 32 hexadecimal digits, the process's random part then a counter. The file
    /// is created with `O_EXCL`, so even a clash could never overwrite another file.
    static func next() -> String {
        var id = ""
        id.reserveCapacity(32)
        appendNext(to: &id)
        return id
    }

    /// Appends a fresh id (see ``next()``) to `text`, without making a string of its own: a
    /// write names its temporary file with one.
    static func appendNext(to text: inout String) {
        let (count, _) = counter.add(1, ordering: .relaxed)
        text += processPart
        appendHex(count, to: &text)
    }

    /// `value` as 16 lowercase hexadecimal digits.
    static func hex(_ value: UInt64) -> String {
        var text = ""
        text.reserveCapacity(16)
        appendHex(value, to: &text)
        return text
    }

    /// Appends `value` to `text` as 16 lowercase hexadecimal digits.
    static func appendHex(_ value: UInt64, to text: inout String) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            for index in 0..<16 {
                let digit = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xf
                digits[index] = digit < 10 ? 0x30 + digit : 0x57 + digit
            }
            // Two halves of 8: each a small string, made and appended without allocating.
            text += String(decoding: UnsafeBufferPointer(rebasing: digits[0..<8]), as: UTF8.self)
            text += String(decoding: UnsafeBufferPointer(rebasing: digits[8..<16]), as: UTF8.self)
        }
    }

    /// The part of a temporary file's name after `<key>~` and before a fresh id: `w-`, then —
    /// where there is locking — the inode of the store's lock file the writer holds while the
    /// file exists: `w-<16 hex digits>-`, or `w-`.
    ///
    /// The `w` says that the writer holds a `flock` lock on the temporary file itself for as
    /// long as the file exists (see ``FileLocks/writeLockedTemporary(_:atPath:for:)``): whether
    /// its writer is still at work is proven on the file, never by a process id, which means
    /// nothing to another user or in another pid namespace.
    static func writerPart(lockInode: UInt64?) -> String {
        var part = lockedMark
        appendLockPart(inode: lockInode, to: &part)
        return part
    }

    /// What starts the writer part of a temporary file this version writes: `w-`.
    static let lockedMark = "w-"

    /// Appends the lock part of ``writerPart(lockInode:)`` to `text`: `<16 hex digits>-`, or
    /// nothing when `inode` is `nil`.
    static func appendLockPart(inode: UInt64?, to text: inout String) {
        guard let inode else { return }
        appendHex(inode, to: &text)
        text += "-"
    }

    /// Who wrote a temporary file, as its name says.
    enum Writer: Equatable {
        /// `<key>~w-<32 hex digits>.tmp`, or `<key>~w-<16 hex digits>-<32 hex digits>.tmp` when
        /// the writer held a lock file, of that inode: this version's, whose writer holds a lock on
        /// the file while it exists (see ``writerPart(lockInode:)``).
        case locked(lockInode: UInt64?)
        /// `<key>~<pid>-<32 hex digits>.tmp`, or `<key>~<pid>-<16 hex digits>-<32 hex digits>.tmp`
        /// when the writer held a lock file, of that inode (see ``writerPart(lockInode:)``).
        case process(Int32, lockInode: UInt64?)
        /// A name of that shape whose process part is not a valid process id.
        case invalidProcess
        /// `<key>~<32 hex digits>.tmp`, an older version's: no process named.
        ///
        /// `process` names too are an older version's: this one writes ``locked(lockInode:)``.
        case olderVersion
    }

    /// Who wrote the temporary file `name` of the store whose names start with `prefix`
    /// (`<key>~`); `nil` when `name` is not a temporary name of that store.
    static func writer(ofTemporary name: String, prefix: String) -> Writer? {
        // Byte by byte, without allocating: this runs for each temporary file at each write,
        // the writer's own too.
        var name = name
        var prefix = prefix
        return prefix.withUTF8 { head in
            name.withUTF8 { all -> Writer? in
                let tail = ".tmp".utf8
                guard all.count >= head.count + 32 + tail.count, all.starts(with: head),
                    all.suffix(tail.count).elementsEqual(tail)
                else { return nil }
                let stem = all[(all.startIndex + head.count)..<(all.endIndex - tail.count)]
                let idStart = stem.endIndex - 32
                guard stem[idStart...].allSatisfy(isHexDigit) else { return nil }
                // `<32 hex digits>`: an older version's.
                if idStart == stem.startIndex { return .olderVersion }
                // `<pid>-` or `<pid>-<16 hex digits>-` before the id.
                guard stem[idStart - 1] == UInt8(ascii: "-") else { return nil }
                let writer = stem[stem.startIndex..<(idStart - 1)]
                var lockInode: UInt64?
                var process = writer
                if let dash = writer.firstIndex(of: UInt8(ascii: "-")) {
                    guard let inode = lowercaseHex(writer[(dash + 1)...]) else { return nil }
                    lockInode = inode
                    process = writer[..<dash]
                }
                if process.elementsEqual("w".utf8) { return .locked(lockInode: lockInode) }
                guard let pid = processID(process) else { return .invalidProcess }
                return .process(pid, lockInode: lockInode)
            }
        }
    }

    /// Whether `name` is exactly the name of a temporary file of the store `key`, as a writer
    /// of this version or an older one names it (see ``Writer``), with a valid process id where
    /// it names one.
    static func isTemporaryName(_ name: String, forKey key: String) -> Bool {
        switch writer(ofTemporary: name, prefix: "\(key)~") {
        case .locked?, .process?, .olderVersion?: true
        case .invalidProcess?, nil: false
        }
    }

    /// The value of exactly 16 lowercase hexadecimal digits, as ``hex(_:)`` writes them.
    private static func lowercaseHex(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64? {
        digits.count == 16 ? FixedDigits.value(digits, radix: 16) : nil
    }

    /// The process id `digits` spell, when they are decimal digits only and name a valid one
    /// (greater than zero, within `Int32`).
    private static func processID(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int32? {
        guard !digits.isEmpty, digits.count <= 10 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        guard value > 0, value <= Int64(Int32.max) else { return nil }
        return Int32(value)
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

extension FileStorage {
    /// The lock file that serialises writers of the store named `key` (already validated).
    func lockURL(forKey key: String) -> URL {
        (try? paths.entry(forKey: key, in: folder))?.lock ?? folder.appending(path: "\(key).lock", directoryHint: .notDirectory)
    }

    /// A fresh temporary file name for writing the document of `key` while holding `lease`:
    /// `<key>~w-<lock>-<id>.tmp`, `lock` the inode of the locked lock file in 16
    /// hexadecimal digits (left out where there is no locking) and `id` 32 (see
    /// ``TemporaryNames``).
    func temporaryURL(forKey key: String, lease: LockLease) -> URL {
        let name = "\(key)~" + TemporaryNames.writerPart(lockInode: lease.identity?.inode) + TemporaryNames.next() + ".tmp"
        return folder.appending(path: name, directoryHint: .notDirectory)
    }

    /// The path of a fresh temporary file for the document of `key`, as
    /// ``temporaryURL(forKey:lease:)`` names it, made from the document's cached path: making a
    /// `URL` cost a small write more than its JSON encoding's setup.
    func temporaryPath(forKey key: String, lease: LockLease) -> String {
        guard let entry = try? paths.entry(forKey: key, in: folder) else {
            return temporaryURL(forKey: key, lease: lease).filePath
        }
        var path = entry.temporaryPrefix
        path.reserveCapacity(path.utf8.count + 17 + 32 + 4)
        TemporaryNames.appendLockPart(inode: lease.identity?.inode, to: &path)
        TemporaryNames.appendNext(to: &path)
        path += ".tmp"
        return path
    }

    /// Why a bad file that is not in the library's format is left in place.
    static let notOursReason =
        "it is not in this app's data format, in a folder the app did not make for its data, so it may be "
        + "another program's file and was neither moved nor replaced"

    /// How old a temporary file of an older version (no process id in its name) must be to be
    /// removed as left over: 10 minutes.
    static let unnamedTemporaryAge: TimeInterval = 600

    /// Removes temporary files of `key` left by a writer that was killed mid-write.
    ///
    /// Call only while holding the key's lock, `lease`. A file this version names,
    /// `<key>~w-<lock>-<32 hex digits>.tmp`, is removed when its own lock is free (see
    /// ``FileLocks/claimTemporary(atPath:)``): its writer held that lock for as long as the
    /// file existed, so it is gone, whatever process ids say. Older versions' files, which their
    /// writers did not lock, are judged as those versions did: `<key>~<pid>-<lock>-<32 hex
    /// digits>.tmp` is removed when `lock` is the inode of the lock file `lease` holds, or else
    /// when process `pid` cannot be writing it (see ``mayBeWriting(_:)``), as is
    /// `<key>~<pid>-<32 hex digits>.tmp`; `<key>~<32 hex digits>.tmp` only when it was last
    /// modified more than ``unnamedTemporaryAge`` ago. Nothing else is touched, so a live
    /// writer's file never is.
    ///
    /// - Returns: How many files were removed.
    @discardableResult
    func removeStaleTemporaries(forKey key: String, holding lease: LockLease) -> Int {
        sweepTemporaries(forKey: key, holding: lease).removed
    }

    /// One listing of the temporary files of `key`, while holding its lock `lease`: removes
    /// those of writers that are gone, as ``removeStaleTemporaries(forKey:holding:)`` says, and
    /// finds another running writer of `key` — a temporary file of this user other than
    /// `own` (the name of the one this writer holds) whose lock is held, or, of an older
    /// version, one named by a process `pid` that is not this one (the threads of this process take the lock in turn,
    /// whatever its file) and with a lock file other than the one `lease` holds (one whose lock
    /// file was removed or replaced after it locked it), written less than
    /// ``unnamedTemporaryAge`` ago, whose process may be writing it (see ``mayBeWriting(_:)``).
    /// An older file of a running process (its id reused after a crash, say) no longer stands
    /// in the way, nor, on Linux, one whose process holds no lock. See
    /// ``write(_:to:key:replacing:backup:lease:read:notices:)``.
    ///
    /// - Returns: How many files were removed, and another running writer's temporary file
    ///   with its process id where the system tells, if there is one.
    func sweepTemporaries(forKey key: String, holding lease: LockLease, own: String? = nil) -> (
        removed: Int, otherWriter: (pid: Int32?, temporary: URL)?
    ) {
        TemporaryListings.willList(folderPath, key: key)
        let prefix = "\(key)~"
        let held = lease.identity?.inode
        var removed = 0
        var otherWriter: (pid: Int32?, temporary: URL)?
        for name in TemporaryNames.candidates(inFolderAt: folderPath, prefix: prefix) {
            guard let writer = TemporaryNames.writer(ofTemporary: name, prefix: prefix) else { continue }
            switch writer {
            case .locked:
                if name == own { continue }
                let path = folderPath + (folderPath.hasSuffix("/") ? "" : "/") + name
                switch FileLocks.claimTemporary(atPath: path) {
                case .removed: removed += 1
                case .notOurs: continue
                case .live:
                    // Locked: its writer is at work now, under a lock file other than the one
                    // `lease` holds (one that was removed or replaced after it locked it).
                    guard otherWriter == nil else { continue }
                    otherWriter = (
                        LockHolder.processID(ofFileAt: path), folder.appending(path: name, directoryHint: .notDirectory)
                    )
                }
            case .process(let pid, let lockInode):
                // This process's own: its current temporary file, or a live one (see above).
                if pid == TemporaryNames.processID { continue }
                let file = folder.appending(path: name, directoryHint: .notDirectory)
                guard Self.isOwnPlainFile(file) else { continue }
                // Named with the lock file held now: a running writer of it would hold this
                // very lock, so its writer is gone, whatever process has its id today.
                let underTheHeldLock = held != nil && lockInode == held
                if !underTheHeldLock, Self.mayBeWriting(pid) {
                    guard otherWriter == nil, let modified = Self.modificationDate(of: file),
                        now().timeIntervalSince(modified) < Self.unnamedTemporaryAge
                    else { continue }
                    otherWriter = (pid, file)
                    continue
                }
                DocumentFile.remove(file)
                removed += 1
            case .invalidProcess:
                continue
            case .olderVersion:
                let file = folder.appending(path: name, directoryHint: .notDirectory)
                guard Self.isOwnPlainFile(file), let modified = Self.modificationDate(of: file),
                    now().timeIntervalSince(modified) > Self.unnamedTemporaryAge
                else { continue }
                DocumentFile.remove(file)
                removed += 1
            }
        }
        return (removed, otherWriter)
    }

    /// Whether process `pid`, named by a temporary file, may be writing it now: it is running
    /// and, where the system tells (Linux), holds a `flock` lock. A writer holds its store's
    /// lock for as long as its temporary file exists, so a running process that holds no lock is
    /// not that file's writer: its id was reused after the writer was killed, or the file was
    /// not made by the library.
    static func mayBeWriting(_ pid: Int32) -> Bool {
        guard isRunning(pid) else { return false }
        #if os(Linux)
        guard pid != getpid() else { return true }
        return LockHolder.holdsLock(pid) ?? true
        #else
        return true
        #endif
    }

    /// Whether a process with id `pid` is running (or may be: one of another user counts).
    static func isRunning(_ pid: Int32) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if pid == getpid() { return true }
        return kill(pid, 0) == 0 || errno != ESRCH
        #else
        return true
        #endif
    }

    /// Whether the file at `url` is a regular file of the current user with no other name
    /// (links are not followed): one a writer of this user may have left.
    static func isOwnPlainFile(_ url: URL) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var info = stat()
        guard lstat(url.filePath, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG && info.st_uid == geteuid() && info.st_nlink == 1
        #else
        return true
        #endif
    }

    /// When the file at `url` was last modified, without following a link.
    private static func modificationDate(of url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.filePath))?[.modificationDate] as? Date
    }
}

/// When the temporary files of each key were last looked for: a write in place lists the folder
/// only when a file may have been added since (see ``mayHaveChanged(_:key:)``), so that in
/// steady state it makes no listing at all.
enum TemporaryListings {
    private struct Listing {
        /// The folder's modification time just before the listing, in nanoseconds.
        let folderModified: Int128
        /// When the listing began, on the same clock.
        let began: Int128
    }

    private static let listings = Locked<[String: Listing]>([:])

    /// Whether the folder at `path` may hold files of `key` that its last listing did not see:
    /// `false` only when the folder is unchanged since a listing that began more than a second
    /// after the folder's last change (so that a file added after that listing, even within
    /// one tick of the file system's clock, gives the folder a later time).
    static func mayHaveChanged(_ path: String, key: String) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let modified = modificationTime(of: path),
            let last = listings.withLock({ $0[path + "\u{0}" + key] })
        else { return true }
        return modified != last.folderModified || last.began - last.folderModified <= 1_000_000_000
        #else
        return true
        #endif
    }

    /// Notes that the folder at `path` is about to be listed for the files of `key`.
    static func willList(_ path: String, key: String) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let modified = modificationTime(of: path) else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let listing = Listing(folderModified: modified, began: now.nanoseconds)
        listings.withLock { $0[path + "\u{0}" + key] = listing }
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    private static func modificationTime(of path: String) -> Int128? {
        var info = stat()
        return stat(path, &info) == 0 ? info.modifiedNanoseconds : nil
    }
    #endif
}
