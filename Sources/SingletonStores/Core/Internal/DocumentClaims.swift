import Foundation
import SingletonStoresLocking

/// Which value type each document of a live persistent store holds, in this process.
///
/// Two stores of different types on one document would each read the other's as damaged and
/// move it aside, or overwrite it. A store claims its document when it is made; a store of
/// another type that asks for a claimed document is refused and never touches the file. Stores
/// of the same type may share a document (they follow each other's writes). The claim ends
/// when the store is released.
///
/// Only documents in files are claimed (a ``FileStorage``, named by the file's path); a storage
/// of typed values keeps each store's value apart by type already.
enum DocumentClaims {
    /// The type each claimed document holds and how many live stores hold it.
    private struct Entry {
        let type: ObjectIdentifier
        let typeName: String
        var holders: Int
    }

    private static let table = Locked<[String: Entry]>([:])

    /// The outcome of asking for a document.
    enum Outcome {
        /// The document is the store's, for as long as it keeps the claim; `nil` for a
        /// document that is not claimed (not in a file).
        case claimed(DocumentClaim?)
        /// A live store of `typeName` holds the document `file`.
        case heldByAnotherType(typeName: String, file: URL)
    }

    /// Claims the document `key` of `storage` for a store of `type`.
    static func claim<Value>(_ type: Value.Type, key: String, storage: any StoreStorage) -> Outcome {
        guard let files = storage as? FileStorage, let file = try? files.fileURL(forKey: key) else {
            return .claimed(nil)
        }
        let path = file.standardizedFileURL.path
        let wanted = ObjectIdentifier(type)
        let holder = table.withLock { table -> String? in
            if let entry = table[path], entry.type != wanted { return entry.typeName }
            table[path, default: Entry(type: wanted, typeName: String(reflecting: type), holders: 0)].holders += 1
            return nil
        }
        if let holder { return .heldByAnotherType(typeName: holder, file: file) }
        return .claimed(DocumentClaim(path: path))
    }

    /// Ends one store's claim on the document at `path`.
    fileprivate static func release(_ path: String) {
        table.withLock { table in
            guard var entry = table[path] else { return }
            entry.holders -= 1
            table[path] = entry.holders > 0 ? entry : nil
        }
    }
}

/// A store's claim on its document; releasing the store releases the claim.
final class DocumentClaim: Sendable {
    private let path: String

    fileprivate init(path: String) { self.path = path }

    deinit { DocumentClaims.release(path) }
}
