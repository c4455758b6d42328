import SingletonStoresTestSupport
import Foundation
import Testing
@testable import SingletonStores

/// A document larger than memory crashed every launch, forever (a 3 GB `profile.json` under a
/// 2 GiB limit). Now a read accepts at most ``DocumentFile/maximumSize`` bytes; a larger file is
/// kept aside, unread, with a message, and the store goes on.
@Suite("FileStorage: documents larger than a read accepts")
struct FileStorageSizeLimitTests {
    /// A sparse file of `size` bytes: no disk space, no time.
    private static func sparseFile(at url: URL, size: UInt64) throws {
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: size)
    }

    @Test func aThreeGigabyteDocumentIsKeptAsideUnreadAndTheStoreStartsFromItsDefault() throws {
        try withTemporaryFolder { folder in
            try LibraryFiles.markAsOwn(folder)  // a folder the library made: bad files are kept aside
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            try Self.sparseFile(at: file, size: 3 << 30)
            let load = try storage.load(StoreDocument(key: "counter", default: PersistedCounter(count: 7)))
            #expect(load.value.count == 7)
            guard case .unreadable(_, let kept, let reason)? = load.recovery else {
                Issue.record("expected the document to be kept aside as unreadable, got \(String(describing: load.recovery))")
                return
            }
            #expect(reason.contains("3 GB") || reason.contains("3.0 GB") || reason.contains("GiB") || reason.contains("GB"))
            #expect(reason.contains("256 MiB") || reason.contains("256 MB"), "\(reason)")
            let keptSize = try FileManager.default.attributesOfItem(atPath: kept.path(percentEncoded: false))[.size] as? NSNumber
            #expect(keptSize?.uint64Value == 3 << 30, "the file is kept whole")
            try storage.update(StoreDocument(key: "counter", default: PersistedCounter())) { $0.count += 1 }
            #expect(
                try storage.load(StoreDocument(key: "counter", default: PersistedCounter())).value.count == 1)
        }
    }

    @Test func aDocumentAtTheLimitIsRead() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "small.json")
            let bytes = Data(#"{"formatVersion": 2, "value": {"count": 3}}"#.utf8)
            try bytes.write(to: file)
            let size = Int64(bytes.count)
            guard case .bytes(bytes) = try DocumentFile.contents(of: file, limit: size) else {
                Issue.record("a document of \(size) bytes is within a limit of as many")
                return
            }
            guard case .tooLarge(size: size) = try DocumentFile.contents(of: file, limit: size - 1) else {
                Issue.record("a document of \(size) bytes is over a limit of one less")
                return
            }
        }
    }
}
