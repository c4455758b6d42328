#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking
import SingletonStoresTestSupport
import Testing
import Timers

@testable import SingletonStores

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// A write in place whose flush fails, a flush that fails inside the handling of another, a link
/// made while a save runs, a file cut short under a reader, slots that became too large: what a
/// save reports is what every later read shows.
@Suite("Failed flushes and files changed under a save")
struct FailedFlushTests {
    static let document = StoreDocument(key: "counter", default: PersistedCounter())

    /// A storage in a temporary folder holding the counter at `count` in a two-slot file with both
    /// slots whole (its next write goes in place), the file, and the folder.
    static func withCounter(_ count: Int = 1, _ body: (FileStorage, URL, URL) throws -> Void) throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(PersistedCounter(count: count), to: Self.document)
            let file = try storage.fileURL(forKey: "counter")
            #expect(try SlotFile.read(Data(contentsOf: file)).slots.count == 2)
            try body(storage, file, folder)
        }
    }

    /// What a fresh reader (another storage on the same folder) reads now.
    static func readBack(_ folder: URL) throws -> Int {
        try FileStorage(folder: folder, reportNotice: { _ in }).load(Self.document).value.count
    }

    /// The flush failed and so did the second one, after the slot was written again: the new
    /// version stands, unconfirmed, and every later read shows it. (It was put back before, while
    /// the store went on holding the new version: a paid item could vanish.)
    @Test func aFlushThatFailsTwiceLeavesTheNewVersionAndSaysSo() throws {
        try Self.withCounter(3) { storage, _, folder in
            let faults = FileFaults([.fsync: [EIO, EIO]])
            #expect {
                try FileFaults.$current.withValue(faults) { try storage.update(Self.document) { $0.count = 4 } }
            } throws: { error in
                guard case StorageError.notDurable(_, let reason) = error else { return false }
                return reason.contains("the file holds the new version") && "\(error)".contains("power cut")
            }
            #expect(faults.isUsedUp)
            #expect(try Self.readBack(folder) == 4, "what was reported done is what is read")
            try storage.update(Self.document) { $0.count += 1 }
            #expect(try Self.readBack(folder) == 5)
        }
    }

    /// A store whose write's flush failed twice holds what every reader reads.
    @Test func aStoreAfterTwoFailedFlushesHoldsWhatIsRead() throws {
        try Self.withCounter(3) { storage, _, folder in
            let issues = Locked<[StoreIssue]>([])
            let store = PersistentStoreCore(
                key: "counter", default: PersistedCounter(), storage: storage, channel: .heldCounter,
                center: NotificationCenter(), watching: .off, reportIssue: { issue in issues.withLock { $0.append(issue) } })
            try FileFaults.$current.withValue(FileFaults([.fsync: [EIO, EIO]])) { try store.update { $0.count = 4 } }
            #expect(store.state.count == 4)
            #expect(try Self.readBack(folder) == 4)
            guard case .storageRecovered(.notDurable)? = issues.withLock({ $0 }).first else {
                Issue.record("reported \(issues.withLock { $0 })")
                return
            }
        }
    }

    /// One failed flush: the slot is written again and flushed again, and the save is done.
    @Test func aFlushThatFailsOnceIsWrittenAgainAndDone() throws {
        try Self.withCounter(3) { storage, _, folder in
            let faults = FileFaults([.fsync: [EIO]])
            try FileFaults.$current.withValue(faults) { try storage.update(Self.document) { $0.count = 4 } }
            #expect(faults.isUsedUp)
            #expect(try Self.readBack(folder) == 4)
        }
    }

    /// A reader that reads while the flush is under way (and about to fail) reads the version
    /// that stands after the save: a version once read is never taken back.
    @Test(arguments: [[EIO], [EIO, EIO]])
    func whatAReaderReadsDuringAFailingFlushStands(failures: [Int32]) throws {
        try Self.withCounter(3) { storage, _, folder in
            let seen = Locked<[Int]>([])
            let faults = FileFaults([.fsync: failures]) { call in
                guard call == .fsync else { return }
                // A read never waits for the writer (a load could: it may lock to set a bad document aside).
                let stored = (try? FileStorage(folder: folder, reportNotice: { _ in }).read("counter")) ?? nil
                let envelope = stored.flatMap { try? JSONSerialization.jsonObject(with: $0.bytes) as? [String: Any] }
                if let count = (envelope?["value"] as? [String: Any])?["count"] as? Int { seen.withLock { $0.append(count) } }
            }
            do {
                try FileFaults.$current.withValue(faults) { try storage.update(Self.document) { $0.count = 4 } }
            } catch {
                guard case StorageError.notDurable? = error as? StorageError else { throw error }
            }
            let after = try Self.readBack(folder)
            #expect(after == 4)
            #expect(!seen.withLock { $0 }.isEmpty)
            #expect(seen.withLock { $0 }.allSatisfy { $0 == after }, "read \(seen.withLock { $0 }), then \(after)")
        }
    }

    /// A hard link made after the document was opened and before its write (here: as it is
    /// opened to be written) gets none of the write: the document is written the rename way.
    @Test func aLinkMadeDuringASaveGetsNoneOfIt() throws {
        try Self.withCounter(3) { storage, file, folder in
            let other = folder.appending(path: "outside-link")
            let faults = FileFaults([:]) { call in
                guard call == .openForWriting, !DocumentFile.exists(other) else { return }
                _ = link(file.filePath, other.filePath)
            }
            let linked = try Data(contentsOf: file)
            try FileFaults.$current.withValue(faults) { try storage.update(Self.document) { $0.count = 4 } }
            #expect(DocumentFile.exists(other))
            #expect(try Data(contentsOf: other) == linked, "the other name's bytes are as they were")
            #expect(try Self.readBack(folder) == 4)
            #expect(FileStamp.of(file) != FileStamp.of(other))
        }
    }

    /// A link made to a new document just after its rename gets no slot filled through it.
    @Test func aLinkMadeAfterANewDocumentsRenameGetsNoFill() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            let other = folder.appending(path: "outside-link")
            let faults = FileFaults([:]) { call in
                guard call == .syncFolder, DocumentFile.exists(file), !DocumentFile.exists(other) else { return }
                _ = link(file.filePath, other.filePath)
            }
            try FileFaults.$current.withValue(faults) { try storage.save(PersistedCounter(count: 2), to: Self.document) }
            let slots = try SlotFile.read(Data(contentsOf: other))
            #expect(slots.slots.count == 1, "slot 1 was not filled through the link")
            #expect(try Self.readBack(folder) == 2)
            try storage.update(Self.document) { $0.count = 3 }
            #expect(try SlotFile.read(Data(contentsOf: other)).slots.count == 1)
            #expect(try Self.readBack(folder) == 3)
        }
    }

    /// After the folder's flush failed, the file's name may not be durable, and under Linux's
    /// rules a later flush may persist none of it: the next save does the rename again.
    @Test func aSaveAfterAFailedFolderFlushRenamesAgain() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let file = try storage.fileURL(forKey: "counter")
            #expect {
                try FileFaults.$current.withValue(FileFaults([.syncFolder: [EIO]])) {
                    try storage.save(PersistedCounter(count: 1), to: Self.document)
                }
            } throws: { error in
                if case StorageError.notDurable = error { true } else { false }
            }
            let first = FileStamp.of(file)
            let flushed = FileFaults([.syncFolder: [0]])
            try FileFaults.$current.withValue(flushed) { try storage.update(Self.document) { $0.count = 2 } }
            #expect(FileStamp.of(file) != first, "a new file, renamed into place")
            #expect(flushed.isUsedUp, "and the folder flushed")
            #expect(try SlotFile.read(Data(contentsOf: file)).slots.count == 2, "both slots whole now")
            let third = FileStamp.of(file)
            try storage.update(Self.document) { $0.count = 3 }
            #expect(FileStamp.of(file) == third, "then written in place")
            #expect(try Self.readBack(folder) == 3)
        }
    }

    /// A document that became small again is written into small slots.
    @Test func slotsShrinkWhenTheDocumentDoes() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let document = StoreDocument(key: "notes", default: "")
            let file = try storage.fileURL(forKey: "notes")
            try storage.save(String(repeating: "x", count: 200_000), to: document)
            #expect(try Data(contentsOf: file).count == SlotFile.headerSize + 2 * 262_144)
            try storage.save("small", to: document)
            #expect(try Data(contentsOf: file).count == SlotFile.headerSize + 2 * SlotFile.smallestSlot)
            #expect(try storage.load(document).value == "small")
            // Between a quarter and the whole of a slot, the slots stay.
            try storage.save(String(repeating: "y", count: 3_000), to: document)
            try storage.save(String(repeating: "z", count: 5_000), to: document)
            let size = try Data(contentsOf: file).count
            try storage.save(String(repeating: "w", count: 2_100), to: document)
            #expect(try Data(contentsOf: file).count == size)
            #expect(try storage.load(document).value == String(repeating: "w", count: 2_100))
        }
    }

    /// The rule itself: keep the slots while the envelope fits and would not fit a quarter.
    @Test func theSlotSizeRule() {
        #expect(SlotFile.slotSize(for: 100, current: nil) == 4_096)
        #expect(SlotFile.slotSize(for: 100, current: 16_384) == 4_096, "a quarter would do: shrink")
        #expect(SlotFile.slotSize(for: 5_000, current: 16_384) == 16_384, "over a quarter: keep")
        #expect(SlotFile.slotSize(for: 20_000, current: 16_384) == 32_768, "outgrown: double")
        #expect(SlotFile.slotSize(for: Int.max, current: 4_096) == nil)
    }

    /// A file cut short or rewritten by another program while a long document is read never
    /// crashes the reader: what was read is a copy of the process's own.
    @Test func aLongDocumentCutShortUnderItsReaderIsNoCrash() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "long.json")
            let size = Int(FileStorage.mapsOver) + 4_096
            try Data(repeating: 0x20, count: size).write(to: file)
            var stamp: FileStamp?
            guard
                case .bytes(let read) = try DocumentFile.contents(
                    of: file, limit: .max, mapsOver: FileStorage.mapsOver, stamp: &stamp)
            else {
                Issue.record("not read")
                return
            }
            #expect(truncate(file.filePath, 0) == 0)
            try Data(repeating: 0x41, count: 100).write(to: file)
            // Every page of what was read, after the file shrank: a mapping of the file itself
            // would end the process here (SIGBUS).
            var sum = 0
            read.withUnsafeBytes { bytes in
                var index = 0
                while index < bytes.count {
                    sum &+= Int(bytes[index])
                    index += 4_096
                }
            }
            #expect(read.count == size)
            #expect(sum == 0x20 * ((size + 4_095) / 4_096), "the bytes as they were read, none of the new file")
        }
    }

    /// A header whose slot size does not match the file's length is damage, never a reason to
    /// read one slot and miss the newer other.
    @Test func aHeaderThatMisstatesTheSlotSizeIsDamage() throws {
        try Self.withCounter(3) { storage, file, _ in
            try storage.update(Self.document) { $0.count = 4 }
            var bytes = try Data(contentsOf: file)
            let header = SlotFile.header(slotSize: 4_096)
            #expect(bytes.starts(with: header))
            bytes.replaceSubrange(0..<header.count, with: SlotFile.header(slotSize: 8_192))
            #expect(throws: SlotFile.Damage.self) { try SlotFile.read(bytes) }
        }
    }

    /// A current slot whose checksum holds but whose bytes are no envelope is not the document's
    /// version: the other, whole slot is read, and the file is not set aside.
    @Test func aCurrentSlotThatIsNoEnvelopeGivesWayToTheOther() throws {
        try Self.withCounter(3) { storage, file, folder in
            let garbage = Data("<not json at all>".utf8)
            var bytes = try Data(contentsOf: file)
            let contents = try SlotFile.read(bytes)
            let current = try #require(contents.current)
            let newer = try #require(
                SlotFile.slot(contents.older, slotSize: contents.slotSize, sequence: current.sequence + 1, envelope: garbage))
            let start = SlotFile.headerSize + contents.older * contents.slotSize
            bytes.replaceSubrange(start..<(start + contents.slotSize), with: newer)
            try bytes.write(to: file)
            let loaded = try storage.load(Self.document)
            #expect(loaded.recovery == nil, "not set aside")
            #expect(loaded.value.count == 3)
            try storage.update(Self.document) { $0.count += 1 }
            #expect(try Self.readBack(folder) == 4)
        }
    }
}

/// A value written under a coalescing policy whose flush failed after it took effect is on disk:
/// it is done, never reported lost.
@Suite("Coalesced writes whose flush failed")
struct CoalescedNotDurableTests {
    @Test func aCoalescedValueWrittenButNotFlushedIsNotLost() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let issues = Locked<[StoreIssue]>([])
            let store = ValueStore(
                key: "slider", default: 0, storage: storage, center: NotificationCenter(), watching: .off,
                writePolicy: .coalescing(within: .seconds(60), clock: ManualClock()),
                reportIssue: { issue in issues.withLock { $0.append(issue) } })
            try store.set(7)
            try FileFaults.$current.withValue(FileFaults([.syncFolder: [EIO]])) { try store.flush() }
            #expect(store.value == 7)
            #expect(try storage.load(StoreDocument(key: "slider", default: 0)).value == 7)
            let reported = issues.withLock { $0 }
            #expect(reported.count == 1)
            guard case .storageRecovered(.notDurable)? = reported.first else {
                Issue.record("reported \(reported)")
                return
            }
        }
    }
}
#endif
