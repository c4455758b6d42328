import Foundation
import SingletonStoresLocking

/// The document this process last committed to each file, byte for byte, so that a
/// transaction that finds those very bytes on disk needs not encode its value a second time to
/// learn whether its change changed anything.
///
/// A transaction reads and decodes the document under the lock, every time, as before: the
/// value it works on is always the one decoded from disk (a value may depend on the decoder,
/// through ``Swift/Decoder/documentFormatVersion``). What this spares is the encoding of that
/// value before the change, which the old document is compared with: when the bytes on disk are
/// exactly the bytes this process committed for the same value type and value version, they
/// are that encoding already (encoding is deterministic, keys sorted), provided the value's
/// `Codable` conformance writes back what it read — as every stored value's must for the
/// document not to change when nothing did. Bytes another process or a person wrote differ,
/// and are encoded again as before.
///
/// It can never lose a write: a transaction that uses these bytes skips its write only when
/// its new document is byte for byte the one on disk already. At worst, for a value whose
/// encoding does not survive a round trip, it writes where encoding the decoded value afresh
/// would have found nothing changed.
///
/// Only documents of up to ``largestRemembered`` bytes are kept, and only the last of each file.
enum WrittenDocuments {
    /// The largest document remembered: 64 KiB. Larger ones are encoded again every time.
    static let largestRemembered = 64 * 1024

    /// The most files remembered at once; past it, the memo starts again empty.
    static let mostFiles = 256

    private struct Entry {
        let bytes: Data
        let type: ObjectIdentifier
        let valueVersion: Int?
    }

    private static let entries = Locked<[String: Entry]>([:])

    /// Whether `bytes`, the current contents of `file`, are the bytes this process last
    /// committed there for a `Value` at `valueVersion`.
    static func areOwn<Value>(_ bytes: Data, of type: Value.Type, in file: URL, valueVersion: Int?) -> Bool {
        guard bytes.count <= largestRemembered else { return false }
        let entry = entries.withLock { $0[file.filePath] }
        guard let entry else { return false }
        return entry.type == ObjectIdentifier(Value.self) && entry.valueVersion == valueVersion && entry.bytes == bytes
    }

    /// Remembers that `bytes`, a `Value` at `valueVersion`, were just committed as `file`.
    static func remember<Value>(_ bytes: Data, of type: Value.Type, in file: URL, valueVersion: Int?) {
        let path = file.filePath
        guard bytes.count <= largestRemembered else {
            forget(file)
            return
        }
        let entry = Entry(bytes: bytes, type: ObjectIdentifier(Value.self), valueVersion: valueVersion)
        entries.withLock { entries in
            if entries.count >= mostFiles, entries[path] == nil { entries.removeAll() }
            entries[path] = entry
        }
    }

    /// Forgets what was written to `file`.
    static func forget(_ file: URL) {
        let path = file.filePath
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }
}
