// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The doc-comment examples of the kit that need its internals or a data folder of their own —
// the locking module's helpers used with a store, fault injection, and the migration examples,
// whose versions of one type (SessionV1, Session…) live here in local scopes so that they never
// clash — verbatim between the markers, so that they always compile; QuickStartTests/
// DocCommentSnippetTests checks that they match. Each runs on a temporary folder or in memory,
// with expectations after it, except the two that open the user's data folder.
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
import StoreObservation
import Testing
@testable import SingletonStores

/// The settings store of the `PersistentStoreCore` migration example, whose document once held
/// the font size in points.
private enum FontSettingsExample {
    struct SettingsV1: Codable, Sendable { var fontPoints: Int }
    struct Settings: Codable, Sendable, Equatable { var fontSize = 17.0 }

    final class SettingsStore: Sendable {
        let persisted: PersistentStoreCore<Settings>

        init(storage: any StoreStorage) {
// Doc "SingletonStores/Core/PersistentStoreCore.swift" snippet 2: begin
persisted = PersistentStoreCore(
    StoreDocument(key: "settings", default: Settings(), migrations: DocumentMigrations(version: 2)
        .step(from: 1) { (old: SettingsV1) in Settings(fontSize: Double(old.fontPoints)) }),
    storage: storage, channel: .settings)
// Doc "SingletonStores/Core/PersistentStoreCore.swift" snippet 2: end
        }
    }
}

extension NotificationChannel<StoreChange<FontSettingsExample.Settings>> {
    fileprivate static var settings: Self { Self("DocComments.FontSettings") }
}

/// Compiled, not run: the store opens the session document of the user's data folder.
private func valueStoreMigrationExample() -> any Sendable {
// Doc "SingletonStores/Core/ValueStore.swift" snippet 3: begin
struct SessionV1: Codable { var token: String; var user: String }
struct Session: Codable, Sendable, Equatable { var token = ""; var userID = "" }

let session = ValueStore(
    StoreDocument(key: "session", default: Session(), migrations: DocumentMigrations(version: 2)
        .step(from: 1) { (old: SessionV1) in Session(token: old.token, userID: old.user) }))
// Doc "SingletonStores/Core/ValueStore.swift" snippet 3: end
    return session
}

@Test func valueStoreUntypedUpdateExample() throws {
    struct ReaderSettings: Codable, Sendable, Equatable { var fontSize = 14; var isLocked = false }
    struct SettingsLocked: Error {}
    let settings = ValueStore(stub: ReaderSettings(isLocked: true))
    #expect(throws: SettingsLocked.self) {
// Doc "SingletonStores/Core/ValueStore.swift" snippet 4: begin
try settings.update { settings in
    guard !settings.isLocked else { throw SettingsLocked() }  // any Error
    settings.fontSize = 18
}
// Doc "SingletonStores/Core/ValueStore.swift" snippet 4: end
    }
    #expect(settings.value.fontSize == 14)
}

/// Compiled, not run: the store opens the session document of the user's data folder.
/// `documentMigrationsChain` runs the same migrations on a folder of its own.
private func documentMigrationsExample() -> any Sendable {
// Doc "SingletonStores/Persistence/DocumentMigrations.swift" snippet 1: begin
struct SessionV1: Codable { var token: String; var user: String }
struct SessionV2: Codable { var token: String; var userID: String }
struct Session: Codable, Sendable, Equatable { var token = ""; var userID = ""; var expires: Date? }

let migrations = DocumentMigrations<Session>(version: 3)
    .step(from: 1) { (old: SessionV1) in SessionV2(token: old.token, userID: old.user) }
    .step(from: 2) { (old: SessionV2) in Session(token: old.token, userID: old.userID) }

let session = ValueStore(StoreDocument(key: "session", default: Session(), migrations: migrations))
// Doc "SingletonStores/Persistence/DocumentMigrations.swift" snippet 1: end
    return session
}

/// What a redraw drew, for the `ObservationLoop` example.
private final class Redraws: Sendable {
    let values = Locked<[Int]>([])
}

@Suite struct KitInternalsDocCommentTests {
    // MARK: - Migrations

    @Test func persistentStoreCoreMigratesTheFontSize() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(FontSettingsExample.SettingsV1(fontPoints: 20), to: StoreDocument(key: "settings", default: FontSettingsExample.SettingsV1(fontPoints: 20), identity: "Settings"))
            let store = FontSettingsExample.SettingsStore(storage: storage)
            #expect(store.persisted.loadProblem == nil)
            #expect(store.persisted.state == FontSettingsExample.Settings(fontSize: 20))
        }
    }

    @Test func documentMigrationsChain() throws {
        // The types and steps of the DocumentMigrations example, on a storage of its own.
        struct SessionV1: Codable, Sendable { var token: String; var user: String }
        struct SessionV2: Codable { var token: String; var userID: String }
        struct Session: Codable, Sendable, Equatable { var token = ""; var userID = ""; var expires: Date? }
        let migrations = DocumentMigrations<Session>(version: 3)
            .step(from: 1) { (old: SessionV1) in SessionV2(token: old.token, userID: old.user) }
            .step(from: 2) { (old: SessionV2) in Session(token: old.token, userID: old.userID) }
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            // What an older version of the app saved: its type had the current one's name.
            try storage.save(SessionV1(token: "t-1", user: "aki"), to: StoreDocument(key: "session", default: SessionV1(token: "t-1", user: "aki"), identity: "Session"))
            let loaded = try storage.load(StoreDocument(key: "session", default: Session(), migrations: migrations))
            #expect(loaded.value == Session(token: "t-1", userID: "aki"))
        }
    }

    @Test func documentMigrationsStep() throws {
        struct SessionV1: Codable, Sendable { var token: String; var user: String }
        struct SessionV2: Codable, Sendable, Equatable { var token: String; var userID: String }
        let migrations = DocumentMigrations<SessionV2>(version: 2)
// Doc "SingletonStores/Persistence/DocumentMigrations.swift" snippet 2: begin
.step(from: 1) { (old: SessionV1) in SessionV2(token: old.token, userID: old.user) }
// Doc "SingletonStores/Persistence/DocumentMigrations.swift" snippet 2: end
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(SessionV1(token: "t-1", user: "aki"), to: StoreDocument(key: "session", default: SessionV1(token: "t-1", user: "aki"), identity: "SessionV2"))
            let loaded = try storage.load(
                StoreDocument(key: "session", default: SessionV2(token: "", userID: ""), migrations: migrations))
            #expect(loaded.value == SessionV2(token: "t-1", userID: "aki"))
        }
    }

    @Test func documentMigrationsOfUnversionedDocuments() throws {
        struct Receipt: Codable, Sendable, Equatable { var id: String; var seconds: Int }
        struct ReceiptVersion1: Codable, Sendable {
            var id: String
            var days: Int
            var current: Receipt { Receipt(id: id, seconds: days * 86_400) }
        }
// Doc "SingletonStores/Persistence/DocumentMigrations.swift" snippet 3: begin
let migrations = DocumentMigrations<[Receipt]>(version: 2)
    .unversionedDocuments { formatVersion in formatVersion == 1 ? 1 : 2 }
    .step(from: 1) { (old: [ReceiptVersion1]) in old.map(\.current) }
// Doc "SingletonStores/Persistence/DocumentMigrations.swift" snippet 3: end
        try withTemporaryFolder { folder in
            // Format 1 wrote version 1 of the value, and no value version: migrated.
            try Data(#"{"formatVersion": 1, "value": [{"id": "r-1", "days": 30}]}"#.utf8)
                .write(to: folder.appending(path: "receipts.json"))
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let old = try storage.load(StoreDocument<[Receipt]>(key: "receipts", default: [], migrations: migrations))
            #expect(old.value == [Receipt(id: "r-1", seconds: 2_592_000)])
            // Format 2 wrote version 2, and no value version either: not migrated again.
            try storage.save([Receipt(id: "r-2", seconds: 60)], to: StoreDocument(key: "others", default: [Receipt(id: "r-2", seconds: 60)]))
            let current = try storage.load(StoreDocument<[Receipt]>(key: "others", default: [], migrations: migrations))
            #expect(current.value == [Receipt(id: "r-2", seconds: 60)])
        }
    }

    @Test func documentMigrationsReadingLongDocuments() throws {
        struct Ledger: Codable, Sendable, Equatable {
            var total = 0
            var entries: [Int] = []
            /// The total of a stored ledger, its entries folded into it as they are read.
            static func folding(_ stream: inout DocumentStream, _ decoder: JSONDecoder) throws -> Ledger {
                var ledger = Ledger()
                try stream.forEachMember { key, stream in
                    switch key {
                    case "total": ledger.total += try decoder.decode(Int.self, from: Data(stream.valueBytes(limit: 64)))
                    case "entries":
                        try stream.forEachElement { stream in
                            ledger.total += try decoder.decode(Int.self, from: Data(stream.valueBytes(limit: 64)))
                        }
                    default: try stream.skipValue()
                    }
                }
                return ledger
            }
        }
// Doc "SingletonStores/Persistence/DocumentMigrations.swift" snippet 4: begin
let migrations = DocumentMigrations<Ledger>(version: 2)
    .readingLongDocuments(over: 64 * 1_024) { stream, decoder in try Ledger.folding(&stream, decoder) }
// Doc "SingletonStores/Persistence/DocumentMigrations.swift" snippet 4: end
        try withTemporaryFolder { folder in
            // 100,000 entries: longer than 64 KiB, and than a read limit lowered to 128 KiB.
            let file = folder.appending(path: "ledger.json")
            let entries = Array(repeating: "1", count: 100_000).joined(separator: ", ")
            try Data(#"{"formatVersion": 2, "valueVersion": 2, "value": {"entries": [\#(entries)], "total": 5}}"#.utf8).write(to: file)
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let loaded = try DocumentReadLimit.$bytes.withValue(128 * 1_024) {
                try storage.load(StoreDocument(key: "ledger", default: Ledger(), migrations: migrations))
            }
            #expect(loaded.recovery == nil, "not kept aside for its size")
            #expect(loaded.value == Ledger(total: 100_005))
            // The load found the lock free: the smaller value replaced the long document.
            #expect(try DocumentFileText.envelope(at: file).count < 1_024)
            #expect(try storage.load(StoreDocument(key: "ledger", default: Ledger(), migrations: migrations)).value == loaded.value)
            // A long document whose value is not what the reader reads is still kept aside.
            try Data(#"{"formatVersion": 2, "valueVersion": 2, "value": {"entries": {"x": "\#(entries)"}}}"#.utf8).write(to: file)
            let damaged = try DocumentReadLimit.$bytes.withValue(128 * 1_024) {
                try storage.load(StoreDocument(key: "ledger", default: Ledger(), migrations: migrations))
            }
            #expect(damaged.value == Ledger())
            #expect(damaged.recovery?.keptFile != nil)
        }
    }

    @Test func documentStream() throws {
        struct Entry: Decodable { var amount: Int }
        let decoder = JSONDecoder()
        var stream = DocumentStream(bytes: Array(#"{"other": {"a": [1, "]\"}"]}, "entries": [{"amount": 2}, {"amount": 3}]} "#.utf8))
// Doc "SingletonStores/Persistence/Internal/DocumentFormat/DocumentStream.swift" snippet 1: begin
var total = 0
try stream.forEachMember { key, stream in
    guard key == "entries" else { return try stream.skipValue() }
    try stream.forEachElement { stream in
        total += try decoder.decode(Entry.self, from: Data(stream.valueBytes(limit: 4_096))).amount
    }
}
// Doc "SingletonStores/Persistence/Internal/DocumentFormat/DocumentStream.swift" snippet 1: end
        #expect(total == 5)
        try stream.expectEnd()
        var truncated = DocumentStream(bytes: Array(#"{"entries": [{"amount": 2}"#.utf8))
        #expect(throws: DocumentStream.Malformed.self) { try truncated.forEachMember { _, stream in try stream.skipValue() } }
    }

    // MARK: - Locking helpers

    @Test(.ownThread) func lateBound() throws {
        final class Store: Sendable {
            let watch: StorageWatch?
            let reloads = Locked(0)
            init(watch: StorageWatch?) { self.watch = watch }
            func reload() { reloads.withLock { $0 += 1 } }
        }
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            let key = "counter"
// Doc "Locking/LateBound.swift" snippet 1: begin
let owner = LateBound<Store>()
let watch = try storage.watch(forKey: key, .automatic) { owner.targetForNews()?.reload() }
let store = Store(watch: watch)          // news that comes meanwhile is remembered
if owner.bind(store) { store.reload() }  // news came while the store was being made
// Doc "Locking/LateBound.swift" snippet 1: end
            #expect(owner.target === store)
            try FileStorage(folder: folder, reportNotice: { _ in }).save(1, to: StoreDocument(key: key, default: 1))  // another storage writes
            #expect(eventually { store.reloads.withLock { $0 } >= 1 }, "the news reached the store")
        }
    }

    @Test func lateBoundRemembersNewsBeforeBind() {
        final class Target: Sendable {}
        let owner = LateBound<Target>()
        #expect(owner.targetForNews() == nil)
        let target = Target()
        #expect(owner.bind(target), "news came before bind")
        #expect(owner.targetForNews() === target)
    }

    @Test func observationLoop() {
        let counter = StoreCore(0, channel: NotificationChannel("DocComments.ObservationLoop"), center: NotificationCenter())
        let redraws = Redraws()
        let redraw: @Sendable (Int) -> Void = { count in redraws.values.withLock { $0.append(count) } }
// Doc "Locking/ObservationLoop.swift" snippet 1: begin
let loop = ObservationLoop({ counter.state }) { count in redraw(count) }
counter.update { $0 += 1 }  // redraw(1), on this thread
loop.cancel()               // later changes redraw nothing
// Doc "Locking/ObservationLoop.swift" snippet 1: end
        counter.update { $0 += 1 }
        #expect(redraws.values.withLock { $0 } == [1])
        #expect(counter.state == 2)
    }

    // MARK: - Fault injection

    @Test func fileFaults() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder, reportNotice: { _ in })
            try storage.save(7, to: StoreDocument(key: "counter", default: 7))
// Doc "SingletonStores/Support/FaultInjection.swift" snippet 2: begin
let faults = FileFaults([.read: [EINTR], .fsync: [EIO, EIO]])
#expect(throws: StorageError.self) {  // the interrupted read is retried; a flush that fails twice is reported
    try FileFaults.$current.withValue(faults) {
        try storage.update(StoreDocument<Int>(key: "counter", default: 0)) { $0 += 1 }
    }
}
// Doc "SingletonStores/Support/FaultInjection.swift" snippet 2: end
            #expect(faults.isUsedUp)
            #expect(try storage.load(StoreDocument<Int>(key: "counter", default: 0)).value == 8, "the new version stands")
        }
    }
}
