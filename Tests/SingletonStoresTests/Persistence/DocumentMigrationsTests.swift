import Foundation
import SingletonStoresTestSupport
import Testing

@testable import SingletonStores

/// Version 1 of the session: the user's name under `user`.
private struct SessionV1: Codable, Sendable, Equatable {
    var token: String
    var user: String
    var since: Date
}

/// Version 2: the name became an id, `userID`.
private struct SessionV2: Codable, Sendable, Equatable {
    var token: String
    var userID: String
    var since: Date
}

/// Version 3, the current one: an optional expiry was added, and every session has one.
private struct Session: Codable, Sendable, Equatable {
    var token = ""
    var userID = ""
    var since = Date(timeIntervalSinceReferenceDate: 0)
    var expires: Date?
}

/// A refusal from a step.
private struct NoUser: Error, CustomStringConvertible {
    var description: String { "the session has no user" }
}

/// Migrating a user's own document through a chain of version steps: one fixture per step, the
/// backup, failures, newer versions, fresh documents and a crash between backup and replace.
@Suite("Document migrations")
struct DocumentMigrationsTests {
    /// When the documents were saved: 2025-05-10T08:53:20.5Z.
    private static let since = Date(timeIntervalSinceReferenceDate: 768_560_000.5)
    /// The time kept files are stamped with.
    private static let now = Date(timeIntervalSinceReferenceDate: 786_000_000)

    /// A document saved by version 1 of the app, in format 1 (dates as seconds since 2001),
    /// without a value version.
    private static let version1 = #"{"formatVersion": 1, "value": {"token": "t-1", "user": "aki", "since": 768560000.5}}"#
    /// A document saved by version 2 of the app, in format 2.
    private static let version2 = """
        {
          "formatVersion" : 2,
          "value" : {
            "since" : "2025-05-10T08:53:20.5Z",
            "token" : "t-1",
            "userID" : "aki"
          },
          "valueVersion" : 2
        }
        """

    private static let stepOne: @Sendable (SessionV1) throws -> SessionV2 = { old in
        guard !old.user.isEmpty else { throw NoUser() }
        return SessionV2(token: old.token, userID: old.user, since: old.since)
    }
    private static let stepTwo: @Sendable (SessionV2) throws -> Session = { old in
        Session(token: old.token, userID: old.userID, since: old.since, expires: old.since.addingTimeInterval(86_400))
    }

    /// The migrations of the current version, 3.
    private static let migrations = DocumentMigrations<Session>(version: 3).step(from: 1, stepOne).step(from: 2, stepTwo)

    /// The session every fixture migrates to.
    private static let migrated = Session(
        token: "t-1", userID: "aki", since: since, expires: since.addingTimeInterval(86_400))

    private static func storage(_ folder: URL, notices: Recorder<StorageNotice>? = nil) -> FileStorage {
        FileStorage(folder: folder, now: { now }, reportNotice: { notices?.append($0) })
    }

    private static func install(_ text: String, in folder: URL, key: String = "session") throws -> Data {
        let data = Data(text.utf8)
        try data.write(to: folder.appending(path: "\(key).json"), options: .atomic)
        return data
    }

    private static func contents(of name: String, in folder: URL) throws -> Data {
        try Data(contentsOf: folder.appending(path: name))
    }

    /// The names of the files in `folder` that start with `prefix`.
    private static func files(in folder: URL, startingWith prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            .filter { $0.hasPrefix(prefix) }.sorted()
    }

    private static func valueVersion(of folder: URL, key: String = "session") throws -> Int? {
        let object =
            try JSONSerialization.jsonObject(with: DocumentFileText.envelope(of: contents(of: "\(key).json", in: folder)))
            as? [String: Any]
        return object?["valueVersion"] as? Int
    }

    // MARK: One fixture per step

    @Test func theStepFromVersion1MigratesAVersion1DocumentToVersion2() throws {
        try withTemporaryFolder { folder in
            let original = try Self.install(Self.version1, in: folder)
            let migrations = DocumentMigrations<SessionV2>(version: 2).step(from: 1, Self.stepOne)
            let load = try Self.storage(folder).load(
                StoreDocument<SessionV2>(
                    key: "session", default: SessionV2(token: "", userID: "", since: Self.since), migrations: migrations))
            #expect(load.value == SessionV2(token: "t-1", userID: "aki", since: Self.since))
            #expect(load.isStored && load.recovery == nil)
            #expect(try Self.valueVersion(of: folder) == 2)
            let backups = try Self.files(in: folder, startingWith: "session~before-v2-")
            #expect(backups == ["session~before-v2-\(FileStorage.timestamp(Self.now)).json"])
            #expect(try Self.contents(of: try #require(backups.first), in: folder) == original)
        }
    }

    @Test func theStepFromVersion2MigratesAVersion2DocumentToVersion3() throws {
        try withTemporaryFolder { folder in
            let original = try Self.install(Self.version2, in: folder)
            let load = try Self.storage(folder).load(
                StoreDocument(key: "session", default: Session(), migrations: Self.migrations))
            #expect(load.value == Self.migrated)
            #expect(try Self.valueVersion(of: folder) == 3)
            let backups = try Self.files(in: folder, startingWith: "session~before-v3-")
            #expect(backups.count == 1)
            #expect(try Self.contents(of: try #require(backups.first), in: folder) == original)
        }
    }

    @Test func aVersion1DocumentMigratesStraightToVersion3() throws {
        try withTemporaryFolder { folder in
            let original = try Self.install(Self.version1, in: folder)
            let notices = Recorder<StorageNotice>()
            let storage = Self.storage(folder, notices: notices)
            let load = try storage.load(StoreDocument(key: "session", default: Session(), migrations: Self.migrations))
            #expect(load.value == Self.migrated)
            // The migrated document is in the current format, with the current version.
            let text = try DocumentFileText.text(at: folder.appending(path: "session.json"))
            #expect(text.hasPrefix("{\n  \"formatVersion\" : 2,\n"))
            #expect(text.contains(#""since" : "2025-05-10T08:53:20.5Z""#))
            #expect(text.contains(#""valueVersion" : 3"#))
            // The backup holds the original bytes, under the documented name.
            let backup = folder.appending(path: "session~before-v3-\(FileStorage.timestamp(Self.now)).json")
            #expect(try Data(contentsOf: backup) == original)
            #expect(
                notices.values == [
                    .documentMigrated(file: try storage.fileURL(forKey: "session"), from: 1, to: 3, backup: backup)
                ])
            // Read again, it is current: nothing more is migrated or copied.
            #expect(
                try storage.load(StoreDocument(key: "session", default: Session(), migrations: Self.migrations)).value
                    == Self.migrated)
            #expect(try Self.files(in: folder, startingWith: "session~").count == 1)
            #expect(notices.values.count == 1)
        }
    }

    // MARK: Failures and newer versions

    @Test func aStepThatThrowsLeavesTheDocumentInPlaceAndTheStoreSaysWhichStep() throws {
        try withTemporaryFolder { folder in
            let original = try Self.install(
                #"{"formatVersion": 1, "value": {"token": "t-1", "user": "", "since": 768560000.5}}"#, in: folder)
            let issues = Recorder<StoreIssue>()
            let store = ValueStore(
                StoreDocument(key: "session", default: Session(), migrations: Self.migrations), storage: Self.storage(folder),
                center: NotificationCenter(), watching: .off, reportIssue: { issues.append($0) })
            #expect(store.value == Session())
            guard case .migrationFailed(_, from: 1, failedStep: 1, let reason)? = store.loadProblem else {
                Issue.record("expected a failed migration, got \(String(describing: store.loadProblem))")
                return
            }
            #expect(reason.contains("the session has no user"))
            #expect(issues.values == [.storageRecovered(try #require(store.loadProblem))])
            #expect(issues.values.first?.description.contains("the step from version 1 to 2") == true)
            // A write never overwrites the document: it throws the same problem.
            #expect(throws: StorageError.self) { try store.set(Session(token: "t-2")) }
            #expect(store.value == Session())
            #expect(try Self.contents(of: "session.json", in: folder) == original)
            #expect(try Self.files(in: folder, startingWith: "session~").isEmpty, "no backup, nothing kept aside")
        }
    }

    @Test func aMissingStepOrAnUndecodableDocumentFailsTheSameWay() throws {
        try withTemporaryFolder { folder in
            let original = try Self.install(Self.version1, in: folder)
            let storage = Self.storage(folder)
            let gap = DocumentMigrations<Session>(version: 3).step(from: 2, Self.stepTwo)
            let load = try storage.load(StoreDocument(key: "session", default: Session(), migrations: gap))
            guard case .migrationFailed(_, from: 1, failedStep: 1, let reason)? = load.recovery else {
                Issue.record("expected a failed migration, got \(String(describing: load.recovery))")
                return
            }
            #expect(reason.contains("no step"))
            #expect(!load.isStored && load.value == Session())
            #expect(throws: StorageError.self) {
                try storage.update(StoreDocument(key: "session", default: Session(), migrations: gap)) { $0.token = "x" }
            }
            #expect(throws: StorageError.self) {
                try storage.save(Session(), to: StoreDocument(key: "session", default: Session(), migrations: gap))
            }
            #expect(try Self.contents(of: "session.json", in: folder) == original)
        }
    }

    @Test func aDocumentOfANewerVersionStaysInPlaceNeverRewritten() throws {
        try withTemporaryFolder { folder in
            let newer = Self.version2.replacingOccurrences(of: #""valueVersion" : 2"#, with: #""valueVersion" : 4"#)
            let original = try Self.install(newer, in: folder)
            let storage = Self.storage(folder)
            let load = try storage.load(StoreDocument(key: "session", default: Session(), migrations: Self.migrations))
            guard case .newerValueVersionLeftInPlace(_, found: 4, supported: 3)? = load.recovery else {
                Issue.record("expected a newer version, got \(String(describing: load.recovery))")
                return
            }
            #expect(load.value == Session())
            #expect(try Self.contents(of: "session.json", in: folder) == original)
            #expect(try Self.files(in: folder, startingWith: "session~").isEmpty)
        }
    }

    // MARK: Writes record the version

    @Test func aFreshStoreWritesTheCurrentVersionSoARelaunchMigratesNothing() throws {
        try withTemporaryFolder { folder in
            let notices = Recorder<StorageNotice>()
            let first = ValueStore(
                StoreDocument(key: "session", default: Session(), migrations: Self.migrations),
                storage: Self.storage(folder, notices: notices),
                center: NotificationCenter(), watching: .off, reportIssue: { Issue.record("unexpected \($0)") })
            try first.set(Self.migrated)
            #expect(try Self.valueVersion(of: folder) == 3)
            // A step that fails would show if the relaunch migrated the current document.
            let failing = DocumentMigrations<Session>(version: 3)
                .step(from: 1) { (_: SessionV1) throws -> SessionV2 in throw NoUser() }
                .step(from: 2) { (_: SessionV2) throws -> Session in throw NoUser() }
            let relaunched = ValueStore(
                StoreDocument(key: "session", default: Session(), migrations: failing),
                storage: Self.storage(folder, notices: notices),
                center: NotificationCenter(), watching: .off, reportIssue: { Issue.record("unexpected \($0)") })
            #expect(relaunched.value == Self.migrated)
            #expect(relaunched.loadProblem == nil)
            #expect(try Self.files(in: folder, startingWith: "session~").isEmpty)
            #expect(notices.values.isEmpty)
        }
    }

    @Test func saveAndUpdateRecordTheVersionAndAMigratedDocumentIsRewrittenEvenUnchanged() throws {
        try withTemporaryFolder { folder in
            let storage = Self.storage(folder)
            try storage.save(
                Session(token: "t-0"),
                to: StoreDocument(key: "session", default: Session(token: "t-0"), migrations: Self.migrations))
            #expect(try Self.valueVersion(of: folder) == 3)
            _ = try Self.install(Self.version2, in: folder)
            let update = try storage.update(
                StoreDocument(key: "session", default: Session(), migrations: Self.migrations)
            ) {
                _ in
            }
            #expect(update.didWrite && update.value == Self.migrated)
            #expect(try Self.valueVersion(of: folder) == 3)
            #expect(try Self.files(in: folder, startingWith: "session~before-v3-").count == 1)
        }
    }

    @Test func aStoreWithoutMigrationsWritesNoValueVersion() throws {
        try withTemporaryFolder { folder in
            try Self.storage(folder).save(
                Session(token: "t-0"), to: StoreDocument(key: "session", default: Session(token: "t-0")))
            #expect(try Self.valueVersion(of: folder) == nil)
        }
    }

    // MARK: A crash between the backup and the replacement

    @Test func aFailureBetweenTheBackupAndTheReplacementLeavesTheOriginalAndIsRedoneNextLaunch() throws {
        try withTemporaryFolder { folder in
            let original = try Self.install(Self.version1, in: folder)
            let storage = Self.storage(folder)
            // The backup's rename goes through; the document's fails, as if the process died
            // between the two.
            let faults = FileFaults([.rename: [0, EIO]])
            #expect(throws: StorageError.self) {
                try FileFaults.$current.withValue(faults) {
                    try storage.update(StoreDocument(key: "session", default: Session(), migrations: Self.migrations)) {
                        $0.token = "t-2"
                    }
                }
            }
            #expect(faults.isUsedUp)
            #expect(try Self.contents(of: "session.json", in: folder) == original, "the original is untouched")
            let backups = try Self.files(in: folder, startingWith: "session~before-v3-")
            #expect(backups.count == 1)
            #expect(try Self.contents(of: try #require(backups.first), in: folder) == original)
            // The next launch migrates again, reusing the backup with the same bytes.
            let relaunched = ValueStore(
                StoreDocument(key: "session", default: Session(), migrations: Self.migrations), storage: Self.storage(folder),
                center: NotificationCenter(), watching: .off, reportIssue: { Issue.record("unexpected \($0)") })
            #expect(relaunched.value == Self.migrated)
            // The launch rewrote the migrated document: the lock was free (the update above let
            // go of it, even if a child process started meanwhile still held a copy).
            #expect(try Self.valueVersion(of: folder) == 3)
            #expect(try Self.files(in: folder, startingWith: "session~") == backups)
            #expect(try Self.files(in: folder, startingWith: "session~").allSatisfy { !$0.hasSuffix(".tmp") })
        }
    }

    @Test func aBackupThatCannotBeWrittenChangesNothing() throws {
        try withTemporaryFolder { folder in
            let original = try Self.install(Self.version1, in: folder)
            let storage = Self.storage(folder)
            // The document's temporary file is flushed; the backup's flush fails.
            let faults = FileFaults([.fsync: [0, EIO]])
            #expect(throws: StorageError.self) {
                try FileFaults.$current.withValue(faults) {
                    try storage.update(StoreDocument(key: "session", default: Session(), migrations: Self.migrations)) {
                        $0.token = "t-2"
                    }
                }
            }
            #expect(try Self.contents(of: "session.json", in: folder) == original)
            #expect(try Self.files(in: folder, startingWith: "session~").isEmpty)
        }
    }

    // MARK: Following and memory

    // Waits with `eventually`, which blocks its thread: on a thread of its own, not the pool's.
    @Test(.ownThread, .hangLimit)
    func aStoreFollowingItsDocumentMigratesWhatAnOlderAppWrote() throws {
        try withTemporaryFolder { folder in
            let store = ValueStore(
                StoreDocument(key: "session", default: Session(), migrations: Self.migrations), storage: Self.storage(folder),
                center: NotificationCenter(), watching: .polling(every: .milliseconds(10)),
                reportIssue: { Issue.record("unexpected \($0)") })
            try store.set(Session(token: "t-0"))
            // An older version of the app, in another process, replaces the document with its
            // shape. (One built on this library version would refuse to: the document is newer
            // than its value. A build of an earlier library version knew no value versions.)
            _ = try Self.install(Self.version1, in: folder)
            #expect(eventually { store.value.userID == "aki" })
            #expect(store.value.token == "t-1")
        }
    }

    @Test func inMemoryStorageKeepsTypedValuesAndIgnoresMigrations() throws {
        let storage = InMemoryStorage(["session": Self.migrated])
        let store = ValueStore(
            StoreDocument(key: "session", default: Session(), migrations: Self.migrations), storage: storage,
            center: NotificationCenter(),
            watching: .off)
        #expect(store.value == Self.migrated)
        try store.set(Session(token: "t-3"))
        #expect(storage.value(Session.self, forKey: "session")?.token == "t-3")
    }

    @Test func aVersionBelow1CountsAs1() {
        #expect(DocumentMigrations<Session>(version: 0).version == 1)
    }

    // Waits with `eventually`, which blocks its thread: on a thread of its own, not the pool's.
    @Test(.ownThread, .hangLimit)
    func aStoreFollowingADocumentItCannotMigrateKeepsItsStateAndSaysSoOnce() throws {
        try withTemporaryFolder { folder in
            let issues = Recorder<StoreIssue>()
            let store = ValueStore(
                StoreDocument(key: "session", default: Session(), migrations: Self.migrations), storage: Self.storage(folder),
                center: NotificationCenter(), watching: .polling(every: .milliseconds(10)), reportIssue: { issues.append($0) })
            try store.set(Self.migrated)
            let unmigratable = try Self.install(
                #"{"formatVersion": 2, "value": {"token": "t-9", "user": "", "since": "2025-05-10T08:53:20Z"}}"#, in: folder)
            #expect(eventually { !issues.values.isEmpty })
            #expect(store.value == Self.migrated)
            guard case .storageRecovered(.migrationFailed(_, from: 1, failedStep: 1, _))? = issues.values.first else {
                Issue.record("expected a failed migration, got \(issues.values.map(\.description))")
                return
            }
            #expect(try Self.contents(of: "session.json", in: folder) == unmigratable, "left in place")
            #expect(issues.values.count == 1)
        }
    }

    @Test func theMessagesNameTheFilesTheStepAndWhatToDo() {
        let file = URL(filePath: "/data/session.json")
        let kept = URL(filePath: "/data/session~newer-version-20251125T120000Z.json")
        let failed = StorageError.migrationFailed(file: file, from: 1, failedStep: 2, reason: "the step threw NoUser")
        #expect(failed.file == file && failed.keptFile == nil)
        #expect(failed.description.contains("/data/session.json holds version 1 of its value"))
        #expect(failed.description.contains("at the step from version 2 to 3: the step threw NoUser"))
        #expect(failed.description.contains("left in place, unchanged"))
        #expect(failed.recoverySuggestion?.contains("report it") == true)
        let newer = StorageError.newerValueVersion(file: file, found: 4, supported: 3, keptAt: kept)
        #expect(newer.keptFile == kept)
        #expect(newer.description.contains("value version 4; this version knows up to version 3"))
        #expect(newer.description.contains(kept.path(percentEncoded: false)))
        let backup = URL(filePath: "/data/session~before-v3-20251125T120000Z.json")
        let notice = StorageNotice.documentMigrated(file: file, from: 1, to: 3, backup: backup)
        #expect(notice.description.contains("migrated from version 1 of its value to version 3"))
        #expect(notice.description.contains(backup.path(percentEncoded: false)))
    }
}
