// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "Persistence and recovery" (Sources/SingletonStores/SingletonStores.docc),
// verbatim between the markers, so that it always compiles. Each snippet sits in a function
// whose parameters are the names the article leaves to the reader (`folder`, `storage`…); the
// tests below run every one of them on a temporary folder.
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.
import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Stores
import Testing
import Timers

func persistenceArticleFolders(appGroupFolder: URL) -> (FileStorage, FileStorage) {
    // Article "PersistenceAndRecovery" snippet 1: begin
let storage = FileStorage()                         // the platform's data folder
let shared = FileStorage(folder: appGroupFolder)    // a folder you choose, such as an app group's
print(storage.folder.path, shared.folder.path)
    // Article "PersistenceAndRecovery" snippet 1: end
    return (storage, shared)
}

// Article "PersistenceAndRecovery" snippet 2: begin
struct Reminder: Codable, Sendable, Equatable {
    var title: String
    var snoozeMinutes: Int  // added in a later version of the app

    init(title: String, snoozeMinutes: Int = 10) {
        self.title = title
        self.snoozeMinutes = snoozeMinutes
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        // Documents saved before the field existed lack it: give them the default.
        snoozeMinutes = try container.decodeIfPresent(Int.self, forKey: .snoozeMinutes) ?? 10
    }
}
// Article "PersistenceAndRecovery" snippet 2: end

func persistenceArticleBadFile(folder: URL) -> UserProfileStore {
    // Article "PersistenceAndRecovery" snippet 3: begin
let profile = UserProfileStore(storage: FileStorage(folder: folder), reportIssue: { issue in
    print("profile: \(issue)")  // reported once, naming the damaged file and where it was kept
})
if let problem = profile.loadProblem, let kept = problem.keptFile {
    print("started from an empty profile; the old one is at \(kept.path)")
}
do {
    try profile.setNickname("Aki")
} catch {
    print(error.recoverySuggestion ?? "")  // the disk is full, say: nothing was changed
}
    // Article "PersistenceAndRecovery" snippet 3: end
    return profile
}

func persistenceArticleLaunch(storage: FileStorage) throws -> Int {
    // Article "PersistenceAndRecovery" snippet 4: begin
struct LaunchCount: Codable, Sendable { var launches = 0 }

let launch = try storage.update(StoreDocument(key: "launches", default: LaunchCount())) { count in
    count.launches += 1  // runs under the document's lock: keep it quick and pure
}
print("launch number \(launch.value.launches)")  // no launch of any process is lost
    // Article "PersistenceAndRecovery" snippet 4: end
    return launch.value.launches
}

func persistenceArticleLive(appGroupFolder: URL) -> (UserProfileStore, BoostTimeManager, ObservationToken) {
    // Article "PersistenceAndRecovery" snippet 5: begin
// The app and its widget share a folder; each follows what the other writes.
let storage = FileStorage(folder: appGroupFolder)
let profile = UserProfileStore(storage: storage)  // follows by default
let boost = BoostTimeManager(storage: storage, watching: .polling(every: .seconds(1)))
let token = profile.observe { change in
    print("nickname: \(change.new.nickname)")  // also for changes the widget made
}
if let end = boost.endDate {
    print("the boost ends at \(end)")  // the same date in every process
}
    // Article "PersistenceAndRecovery" snippet 5: end
    return (profile, boost, token)
}

func persistenceArticleWatch(storage: FileStorage) throws -> StorageWatch? {
    // Article "PersistenceAndRecovery" snippet 6: begin
let watch = try storage.watch(forKey: "launches", .automatic) {
    print("launches.json may have changed")  // runs on the storage's thread, with no lock held
}
print(watch?.mechanism as Any)  // file events on Linux, a poll on Apple platforms
    // Article "PersistenceAndRecovery" snippet 6: end
    return watch
}

// Article "PersistenceAndRecovery" snippet 7: begin
// Version 1 of the app saved a note as text and a star; version 2 turned the star into tags;
// version 3, this one, splits the text into a title and a body.
struct NoteV1: Codable, Sendable { var text: String; var starred: Bool }
struct NoteV2: Codable, Sendable { var text: String; var tags: [String] }

struct Note: Codable, Sendable, Equatable {
    var title = ""
    var body = ""
    var tags: [String] = []
}

let noteMigrations = DocumentMigrations<Note>(version: 3)
    .step(from: 1) { (old: NoteV1) in NoteV2(text: old.text, tags: old.starred ? ["starred"] : []) }
    .step(from: 2) { (old: NoteV2) in
        let lines = old.text.split(separator: "\n", maxSplits: 1).map(String.init)
        return Note(title: lines.first ?? "", body: lines.dropFirst().first ?? "", tags: old.tags)
    }
// Article "PersistenceAndRecovery" snippet 7: end

func persistenceArticleMigratedNote(storage: FileStorage) -> ValueStore<Note> {
    // Article "PersistenceAndRecovery" snippet 8: begin
let note = ValueStore(StoreDocument(key: "note", default: Note(), migrations: noteMigrations), storage: storage)
print(note.value.title)  // a note saved by version 1 or 2 reads as a version 3 note
if case .migrationFailed(_, let from, let step, let reason)? = note.loadProblem {
    print("the note of version \(from) was left as it was: the step from \(step) failed: \(reason)")
}
    // Article "PersistenceAndRecovery" snippet 8: end
    return note
}

@Suite struct PersistenceAndRecoveryArticleTests {
    @Test func theFolderIsTheOneGivenOrThePlatforms() throws {
        try withTemporaryFolder { folder in
            let (storage, shared) = persistenceArticleFolders(appGroupFolder: folder)
            #expect(shared.folder.standardizedFileURL == folder.standardizedFileURL)
            #expect(!storage.folder.path.isEmpty)
        }
    }

    @Test func aDocumentSavedBeforeAFieldExistedStillLoads() throws {
        try withTemporaryFolder { folder in
            let old = #"{"formatVersion": 2, "value": {"title": "Stretch"}}"#
            try Data(old.utf8).write(to: folder.appending(path: "reminder.json"))
            let storage = FileStorage(folder: folder)
            let loaded = try storage.load(StoreDocument(key: "reminder", default: Reminder(title: "")))
            #expect(loaded.value == Reminder(title: "Stretch", snoozeMinutes: 10))
            #expect(loaded.recovery == nil)
            try storage.save(Reminder(title: "Walk", snoozeMinutes: 5), to: StoreDocument(key: "reminder", default: Reminder(title: "Walk", snoozeMinutes: 5)))
            #expect(try storage.load(StoreDocument(key: "reminder", default: Reminder(title: ""))).value.snoozeMinutes == 5)
        }
    }

    @Test func aDamagedProfileIsKeptAsideAndTheStoreStartsFresh() throws {
        try withTemporaryFolder { folder in
            let document = folder.appending(path: "profile.json")
            try Data("{\"formatVersion\": 2, \"value\": {\"nick".utf8).write(to: document)
            let profile = persistenceArticleBadFile(folder: folder)
            let problem = try #require(profile.loadProblem)
            guard case .corrupted = problem else {
                Issue.record("expected a damaged document, got \(problem)")
                return
            }
            let kept = try #require(problem.keptFile)
            #expect(kept.lastPathComponent.hasPrefix("profile~corrupt-"))
            #expect(FileManager.default.fileExists(atPath: kept.path))
            #expect(profile.profile.nickname == "Aki")  // the snippet's write went through
        }
    }

    @Test(.ownThread) func noLaunchIsLostWhenProcessesWriteAtOnce() throws {
        try withTemporaryFolder { folder in
            // Separate storages, as separate processes would have, writing at once.
            onThreads(4) {
                for _ in 0..<25 { _ = try? persistenceArticleLaunch(storage: FileStorage(folder: folder)) }
            }
            let last = try persistenceArticleLaunch(storage: FileStorage(folder: folder))
            #expect(last == 101)
        }
    }

    @Test func theStoresFollowWhatAnotherProcessWrites() throws {
        try withTemporaryFolder { folder in
            let (profile, boost, token) = persistenceArticleLive(appGroupFolder: folder)
            defer { token.cancel() }
            #expect(boost.endDate == nil)
            // The widget: another store on the same folder that does not watch.
            let widget = UserProfileStore(storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off)
            try widget.setNickname("Aki")
            #expect(eventually { profile.profile.nickname == "Aki" })
        }
    }

    @Test func aBoostStartedElsewhereEndsAtTheSameDate() throws {
        try withTemporaryFolder { folder in
            let wall = ManualWallClock(now: Date(timeIntervalSince1970: 1_700_000_000))
            func boost() -> BoostTimeManager {
                BoostTimeManager(
                    clock: ManualClock(), wallClock: wall.wallClock, storage: FileStorage(folder: folder),
                    center: NotificationCenter(), watching: .polling(every: .milliseconds(10)))
            }
            let app = boost(), widget = boost()
            app.startCountDown(duration: 600)
            let end = try #require(app.endDate)
            #expect(eventually { widget.endDate == end })
        }
    }

    @Test func aWatchHearsOfAnotherWriter() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            _ = try persistenceArticleLaunch(storage: storage)  // the folder exists: file events where there are any
            let watch = try persistenceArticleWatch(storage: storage)
            defer { watch?.cancel() }
            #expect(watch != nil)
            let heard = Recorder<Int>()
            let listener = try storage.watch(forKey: "launches", .automatic) { heard.append(1) }
            defer { listener?.cancel() }
            _ = try persistenceArticleLaunch(storage: FileStorage(folder: folder))
            #expect(eventually { heard.count > 0 })
        }
    }

    @Test func aNoteSavedByVersion1IsMigratedToVersion3AndBackedUp() throws {
        try withTemporaryFolder { folder in
            let original = Data(#"{"formatVersion": 2, "value": {"text": "Groceries\nmilk, eggs", "starred": true}}"#.utf8)
            try original.write(to: folder.appending(path: "note.json"))
            let note = persistenceArticleMigratedNote(storage: FileStorage(folder: folder, reportNotice: { _ in }))
            #expect(note.value == Note(title: "Groceries", body: "milk, eggs", tags: ["starred"]))
            #expect(note.loadProblem == nil)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            let backup = try #require(names.first { $0.hasPrefix("note~before-v3-") })
            #expect(try Data(contentsOf: folder.appending(path: backup)) == original)
            let text = try String(contentsOf: folder.appending(path: "note.json"), encoding: .utf8)
            #expect(text.contains(#""valueVersion" : 3"#))
        }
    }

    @Test func aNoteSavedByVersion2IsMigratedToVersion3() throws {
        try withTemporaryFolder { folder in
            let original = #"{"formatVersion": 2, "valueVersion": 2, "value": {"text": "Call Mei", "tags": ["work"]}}"#
            try Data(original.utf8).write(to: folder.appending(path: "note.json"))
            let note = persistenceArticleMigratedNote(storage: FileStorage(folder: folder, reportNotice: { _ in }))
            #expect(note.value == Note(title: "Call Mei", body: "", tags: ["work"]))
        }
    }
}
