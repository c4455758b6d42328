import Foundation
import SingletonStoresLocking

/// The documents this process wrote last, by file: the exact bytes of each and the value they
/// encode, so that a transaction that finds those very bytes on disk needs not decode them, nor
/// encode the value again to learn whether its change changed anything.
///
/// It is a memo of decoding, not a copy of the disk: a transaction still reads the document
/// under the lock, every time, and an entry stands in only for bytes equal to the ones it
/// holds (with the same value type and value version). Whatever another process wrote, or a
/// person changed, has other bytes and is decoded as usual. Since ``DocumentCoding/encode(_:key:valueVersion:)``
/// is deterministic (sorted keys), the held bytes are also the encoding of the held value: what
/// a transaction compares its result with to tell whether the value changed. This relies on the
/// value's `Codable` conformance reading back what it wrote, as every stored value must for a
/// store to reload its own state.
///
/// Only documents of up to ``largestRemembered`` bytes are kept, only the last one of each file,
/// and only values of value types: an instance of a class could be changed in place by a
/// transaction that then fails to commit, and no longer match its bytes.
enum WrittenDocuments {
    /// The largest document remembered: 64 KiB. Larger ones are decoded every time.
    static let largestRemembered = 64 * 1024

    /// The most files remembered at once; past it, the memo starts again empty.
    static let mostFiles = 256

    private struct Entry {
        let bytes: Data
        let value: any Sendable
        let valueVersion: Int?
    }

    private static let entries = Locked<[String: Entry]>([:])

    /// The value that `bytes`, the current contents of `file`, encode, when they are the bytes
    /// this process last wrote there for a `Value` of `valueVersion`; `nil` otherwise.
    static func value<Value: Sendable>(_ type: Value.Type, in file: URL, bytes: Data, valueVersion: Int?) -> Value? {
        guard bytes.count <= largestRemembered else { return nil }
        let entry = entries.withLock { $0[file.filePath] }
        guard let entry, entry.valueVersion == valueVersion, entry.bytes == bytes else { return nil }
        return entry.value as? Value
    }

    /// Remembers that `bytes`, just committed as `file`, encode `value` at `valueVersion`.
    static func remember<Value: Sendable>(_ value: Value, as bytes: Data, in file: URL, valueVersion: Int?) {
        let path = file.filePath
        guard bytes.count <= largestRemembered, !(Value.self is AnyObject.Type) else {
            forget(file)
            return
        }
        let entry = Entry(bytes: bytes, value: value, valueVersion: valueVersion)
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
