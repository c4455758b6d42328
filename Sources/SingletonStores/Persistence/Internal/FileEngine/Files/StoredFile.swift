#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension FileStorage {
    /// The size over which a document file is mapped rather than read: 16 MiB.
    static let mapsOver: Int64 = 16 * 1_024 * 1_024

    /// The document file `file` as stored bytes, `nil` when there is none, and the `stamp` of the
    /// file read (see ``DocumentFile/contents(of:limit:stamp:)``).
    ///
    /// - Throws: When the file is there but could not be read (it is left as it is), including
    ///   when it is a link or belongs to another user.
    func stored(at file: URL, stamp: inout FileStamp?) throws(StorageError) -> StoredBytes? {
        // Any size is taken: the document layer decides what is too long for the document (a
        // long one may be read as a stream). Long files are mapped, not read.
        let contents = try DocumentFile.contents(of: file, limit: .max, mapsOver: Self.mapsOver, stamp: &stamp)
        let bytes: Data
        switch contents {
        case .missing: return nil
        case .bytes(let data): bytes = data
        case .notARegularFile, .tooLarge: bytes = Data()
        }
        let damage = DocumentCoding.fileProblem(contents, limit: .max)
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        // Only a file in the library's format, or any file in a folder the library made for
        // itself, is moved aside when bad; the check is made only when a document is bad.
        let folder = folder
        return StoredBytes(
            bytes, location: file, damage: damage,
            ownership: {
                DocumentFile.isInLibraryFormat(file) || FileStorageFolder.isOwn(folder) ? nil : FileStorage.notOursReason
            })
        #else
        return StoredBytes(bytes, location: file, damage: damage)
        #endif
    }
}
