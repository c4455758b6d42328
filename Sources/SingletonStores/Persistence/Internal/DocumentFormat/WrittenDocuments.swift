import Foundation
import SingletonStoresLocking

/// The last document this process committed to each place, or decoded from it, byte for byte
/// with its value, so that a transaction or a read that finds those very bytes again needs not
/// decode them a second time — nor, when this process committed them, encode its value again
/// to learn whether its change changed anything.
///
/// The common write is a store updating the document it wrote last: the bytes under the lock
/// are its own, and the body gets the value it committed, with no decoding. Bytes another
/// process or a person wrote differ, and are decoded (and remembered) as before.
///
/// What this means for a value: the value a body or a read gets for bytes this process
/// committed is the value it committed, not the one decoding those bytes would give. The two
/// are equal for a value whose `Codable` conformance writes back what it read — as every
/// stored value's must for the document not to change when nothing did. For one whose coding
/// does not round-trip (a property left out of `encode(to:)`, a rounding date), the value of
/// this process's own commit stays as it was in memory, and other processes see the decoded
/// one. Values of a class type are never remembered (a body could change the remembered
/// instance itself): they are decoded every time.
///
/// It can never lose a write: a transaction that uses remembered bytes skips its write only
/// when its new document is byte for byte the one on disk already.
///
/// Only documents of up to ``largestRemembered`` bytes are kept, and only the last of each place.
package enum WrittenDocuments {
    /// The largest document remembered: 64 KiB. Larger ones are decoded and encoded every time.
    static let largestRemembered = 64 * 1024

    /// The most places remembered at once; past it, the memo starts again empty.
    static let mostFiles = 256

    private struct Entry: Sendable {
        let bytes: Data
        let value: any Sendable
        let type: ObjectIdentifier
        let valueVersion: Int?
        let identity: String
        /// Whether `bytes` are what encoding `value` gives (this process committed them).
        let isOwnEncoding: Bool
    }

    private static let entries = Locked<[String: Entry]>([:])

    /// The value remembered for `bytes`, the current contents of `file`, as a `Value` at
    /// `valueVersion` of the store `identity`, and whether this process committed them (the
    /// bytes are then the encoding of that value); `nil` when they are not the bytes last
    /// remembered there for that type, version and store.
    static func remembered<Value: Sendable>(
        _ bytes: Data, of type: Value.Type, in file: URL, valueVersion: Int?, identity: String
    ) -> (value: Value, isOwnEncoding: Bool)? {
        guard bytes.count <= largestRemembered, !(Value.self is AnyClass) else { return nil }
        let entry = entries.withLock { $0[file.filePath] }
        guard let entry, entry.type == ObjectIdentifier(Value.self), entry.valueVersion == valueVersion,
            entry.identity == identity, entry.bytes == bytes, let value = entry.value as? Value
        else { return nil }
        return (value, entry.isOwnEncoding)
    }

    /// Remembers that `file` holds `bytes`, whose value is `value` (a `Value` at `valueVersion`
    /// of the store `identity`): committed by this process when `isOwnEncoding` (the bytes are
    /// then `value`'s encoding), else decoded from them.
    static func remember<Value: Sendable>(
        _ bytes: Data, value: Value, in file: URL, valueVersion: Int?, identity: String, isOwnEncoding: Bool
    ) {
        let path = file.filePath
        guard bytes.count <= largestRemembered, !(Value.self is AnyClass) else {
            forget(file)
            return
        }
        let entry = Entry(
            bytes: bytes, value: value, type: ObjectIdentifier(Value.self), valueVersion: valueVersion,
            identity: identity, isOwnEncoding: isOwnEncoding)
        entries.withLock { entries in
            if entries.count >= mostFiles, entries[path] == nil { entries.removeAll() }
            entries[path] = entry
        }
    }

    /// Forgets every document remembered in `folder` and below: for a test that plays a new
    /// launch in the same process, which remembers nothing.
    package static func forget(under folder: URL) {
        var prefix = folder.filePath
        if !prefix.hasSuffix("/") { prefix += "/" }
        entries.withLock { entries in entries = entries.filter { !$0.key.hasPrefix(prefix) } }
    }

    /// Forgets what was written to `file`.
    static func forget(_ file: URL) {
        let path = file.filePath
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }
}
