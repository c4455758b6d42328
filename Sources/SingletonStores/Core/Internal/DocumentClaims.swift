import Foundation
import SingletonStoresLocking

/// Which store (its ``StoreDocument/identity``) each document of a live persistent store
/// belongs to, in this process.
///
/// Two different stores on one document would each read the other's as damaged and move it
/// aside, or overwrite it. A store claims its document when it is made; a store of another
/// identity that asks for a claimed document is refused and never touches the file. Stores of
/// the same identity may share a document (they follow each other's writes). The claim ends
/// when the store is released. Across processes, and after the claim ends, the identity the
/// document records keeps other stores off it (see ``DocumentHeader``).
///
/// Only documents whose storage says where they are are claimed
/// (``StoreStorage/documentLocation(forKey:)``: a ``FileStorage``, or a storage of one's own
/// around one, names the file); a storage of typed values keeps each store's value apart by type
/// already.
enum DocumentClaims {
    /// The store each claimed document belongs to and how many live stores hold it.
    private struct Entry {
        let identity: String
        var holders: Int
    }

    private static let table = Locked<[String: Entry]>([:])

    /// The outcome of asking for a document.
    enum Outcome {
        /// The document is the store's, for as long as it keeps the claim; `nil` for a
        /// document that is not claimed (its storage does not say where it is).
        case claimed(DocumentClaim?)
        /// A live store of `identity` holds the document `file`.
        case heldByAnotherStore(identity: String, file: URL)
    }

    /// Claims the document `key` of `storage` for the store `identity`.
    static func claim(identity: String, key: String, storage: any StoreStorage) -> Outcome {
        guard let file = storage.documentLocation(forKey: key) else { return .claimed(nil) }
        let path = file.isFileURL ? file.standardizedFileURL.path : file.absoluteString
        let holder = table.withLock { table -> String? in
            if let entry = table[path], entry.identity != identity { return entry.identity }
            table[path, default: Entry(identity: identity, holders: 0)].holders += 1
            return nil
        }
        if let holder { return .heldByAnotherStore(identity: holder, file: file) }
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
