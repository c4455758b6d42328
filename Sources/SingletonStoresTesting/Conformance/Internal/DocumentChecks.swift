import Foundation

/// The value the document checks keep, at version 2: a title and tags.
struct ConformanceNote: Codable, Sendable, Equatable {
    var title = ""
    var tags: [String] = []
}

/// Version 1 of ``ConformanceNote``: one line of text.
struct ConformanceNoteVersion1: Codable, Sendable, Equatable {
    var text = ""
}

/// The checks of the document layer through a storage: what every store does with it.
struct DocumentChecks<Storage: StoreStorage>: Sendable {
    let storage: Storage
    let key: String

    /// The store both versions of the note belong to.
    static var identity: String { "ConformanceNote" }

    /// The note at version 2, migrated from version 1 when it has to be.
    var document: StoreDocument<ConformanceNote> {
        StoreDocument(
            key: key, default: ConformanceNote(),
            migrations: DocumentMigrations(version: 2).step(from: 1) { (old: ConformanceNoteVersion1) in
                ConformanceNote(title: old.text, tags: ["migrated"])
            },
            identity: Self.identity)
    }

    func saveLoadUpdate() throws(ConformanceProblem) {
        let document = StoreDocument(key: key, default: ConformanceNote())
        let first = try load(document)
        try require(
            first.value == ConformanceNote() && !first.isStored && first.recovery == nil,
            "load(_:) of a document never saved gave \(first), not the default")
        let saved = ConformanceNote(title: "Groceries", tags: ["home"])
        let setAside = try attempt("save(_:to:)") { () throws(StorageError) in try storage.save(saved, to: document) }
        try require(setAside == nil, "save(_:to:) of a new document reported “\(describe(setAside))”")
        let loaded = try load(document)
        try require(loaded.value == saved && loaded.isStored, "after save(_:to:), load(_:) gave \(loaded)")
        let update = try attempt("update(_:_:)") { () throws(StorageError) in
            try storage.update(document) { note in
                note.tags.append("weekly")
                return note.tags.count
            }
        }
        try require(
            update.outcome == 2 && update.didWrite && update.value.tags == ["home", "weekly"],
            "update(_:_:) gave \(update)")
        let updated = try load(document)
        try require(updated.value == update.value, "after update(_:_:), load(_:) gave \(updated.value), not \(update.value)")
        let available = try attempt("updateIfAvailable(_:_:)") { () throws(StorageError) in
            try storage.updateIfAvailable(document) { $0.title = "Shopping" }
        }
        try require(available != nil, "updateIfAvailable(_:_:) on a document no one held returned nil")
        let final = try load(document)
        try require(final.value.title == "Shopping", "after updateIfAvailable(_:_:), load(_:) gave \(final.value)")
    }

    func migration() throws(ConformanceProblem) {
        let version1 = StoreDocument(key: key, default: ConformanceNoteVersion1(), identity: Self.identity)
        try attempt("save(_:to:) of version 1") { () throws(StorageError) in
            _ = try storage.save(ConformanceNoteVersion1(text: "Call the plumber"), to: version1)
        }
        let migrated = ConformanceNote(title: "Call the plumber", tags: ["migrated"])
        let loaded = try load(document)
        try require(
            loaded.value == migrated && loaded.isStored && loaded.recovery == nil,
            "load(_:) of a document saved at version 1 gave \(loaded), not the migrated \(migrated)")
        let update = try attempt("update(_:_:) of the migrated document") { () throws(StorageError) in
            try storage.update(document) { $0.tags.append("urgent") }
        }
        try require(update.value.tags == ["migrated", "urgent"], "update(_:_:) of the migrated document gave \(update.value)")
        // Read without the step from version 1: the document must now be at version 2.
        let current = StoreDocument(
            key: key, default: ConformanceNote(), migrations: DocumentMigrations(version: 2), identity: Self.identity)
        let again = try load(current)
        try require(
            again.value == update.value && again.recovery == nil,
            "after an update, the document is not at version 2: load(_:) gave \(again)")
    }

    func badDocument() throws(ConformanceProblem) {
        let bytes = ByteChecks(storage: storage, key: key)
        try bytes.write(Data("this is not a document {".utf8))
        let document = StoreDocument(key: key, default: ConformanceNote(title: "default"))
        let loaded = try load(document)
        try require(
            loaded.value == document.defaultValue && !loaded.isStored,
            "load(_:) of a bad document gave \(loaded.value), not the default")
        guard case .corrupted(_, let keptAt, _)? = loaded.recovery else {
            throw ConformanceProblem(text: "load(_:) of a bad document reported \(describe(loaded.recovery)), not .corrupted")
        }
        try require(!keptAt.path.isEmpty, "load(_:) of a bad document reported it kept at an empty path")
        let left = try bytes.stored()
        try require(left == nil, "after load(_:) set the bad document aside, read(_:) still gave \(describe(left))")
        let next = try load(document)
        try require(next.recovery == nil, "a second load(_:) reported “\(describe(next.recovery))” again")
        try attempt("save(_:to:) after the bad document was set aside") { () throws(StorageError) in
            _ = try storage.save(ConformanceNote(title: "fresh"), to: document)
        }
        let saved = try load(document)
        try require(saved.value.title == "fresh", "after the bad document was set aside, a save read back \(saved.value)")
    }

    private func load<Value>(_ document: StoreDocument<Value>) throws(ConformanceProblem) -> StorageLoad<Value> {
        try attempt("load(_:)") { () throws(StorageError) in try storage.load(document) }
    }
}
