import Foundation

/// The checks of a storage's three requirements on one thread: reading, committing, changing
/// nothing, setting aside, refusing invalid keys.
struct ByteChecks<Storage: StoreStorage>: Sendable {
    let storage: Storage
    let key: String

    /// Every byte value, then some text: what a storage that treats documents as text would
    /// change.
    static var sample: Data { Data((0...255).map { UInt8($0) }) + Data("\r\n…a document ✓\0".utf8) }

    /// A second, shorter document, to see that a write replaces the first one whole.
    static var other: Data { Data("a second, shorter document".utf8) }

    /// The problem a body sets a document aside for.
    static var problem: DocumentProblem { .corrupted(reason: "set aside by the conformance check") }

    func missingKey() throws(ConformanceProblem) {
        let read = try stored()
        try require(read == nil, "read(_:) of a key never written gave \(describe(read))")
        let given = try current()
        try require(given == nil, "a transaction on a key never written was given \(describe(given))")
        let after = try stored()
        try require(after == nil, "after a transaction that changed nothing, read(_:) gave \(describe(after))")
    }

    func invalidKey() throws(ConformanceProblem) {
        for invalid in ["", "../outside", "a/b", ".hidden", "with space"] {
            try expectInvalidKey("read(\"\(invalid)\")") { () throws(StorageError) in _ = try storage.read(invalid) }
            var ran = false
            try expectInvalidKey("transaction(\"\(invalid)\", waits: true)") { () throws(StorageError) in
                _ = try storage.transaction(invalid, waits: true) { _ in
                    ran = true
                    return DocumentDecision(())
                }
            }
            try require(!ran, "transaction(\"\(invalid)\", waits: true) ran its body")
            try expectInvalidKey("watch(forKey: \"\(invalid)\", .automatic)") { () throws(StorageError) in
                try storage.watch(forKey: invalid, .automatic, onChange: {})?.cancel()
            }
        }
    }

    func committedBytes() throws(ConformanceProblem) {
        for bytes in [Self.sample, Self.other] {
            try write(bytes)
            let read = try attempt("read(_:)") { () throws(StorageError) in try storage.read(key) }
            try require(read?.bytes == bytes, "after committing \(bytes.count) bytes, read(_:) gave \(describe(read?.bytes))")
            try require(read?.damage == nil, "read(_:) reported committed bytes as damaged: \(read?.damage?.summary ?? "")")
            let current = try current()
            try require(
                current == bytes,
                "after committing \(bytes.count) bytes, the next transaction was given \(describe(current))")
        }
    }

    func throwingBody() throws(ConformanceProblem) {
        try write(Self.sample)
        let thrown = StorageError.writeFailed(
            file: URL(filePath: "/conformance/\(key)"), reason: "thrown by the conformance check's body")
        do {
            _ = try storage.transaction(key, waits: true) { _ throws(StorageError) -> DocumentDecision<Void> in
                throw thrown
            }
            throw ConformanceProblem(text: "a transaction whose body threw returned instead of throwing the body's error")
        } catch let error as ConformanceProblem {
            throw error
        } catch {
            try require(error as? StorageError == thrown, "a transaction whose body threw threw “\(error)” instead of its error")
        }
        let read = try stored()
        try require(read == Self.sample, "after a body threw, read(_:) gave \(describe(read)) instead of the document as it was")
        let again = try attempt("a transaction after a body threw") { () throws(StorageError) in
            try storage.transaction(key, waits: false) { _ in DocumentDecision(()) }
        }
        try require(again != nil, "after a body threw, the key stayed locked: a transaction with waits: false returned nil")
    }

    func noChange() throws(ConformanceProblem) {
        let onMissing = try attempt("a transaction changing nothing") { () throws(StorageError) in
            try storage.transaction(key, waits: true) { _ in DocumentDecision(7) }
        }
        try require(onMissing?.result == 7, "a transaction returned \(describe(onMissing?.result)) instead of its body's 7")
        try require(onMissing?.keptAt == nil, "a transaction that set nothing aside gave a keptAt")
        let left = try stored()
        try require(left == nil, "DocumentChange.none on a key never written left \(describe(left))")
        try write(Self.sample)
        let onDocument = try attempt("a transaction changing nothing") { () throws(StorageError) in
            try storage.transaction(key, waits: true) { _ in DocumentDecision("kept", change: .none) }
        }
        try require(onDocument?.result == "kept", "a transaction returned \(describe(onDocument?.result)) instead of its body's")
        try require(onDocument?.keptAt == nil, "a transaction that set nothing aside gave a keptAt")
        let read = try stored()
        try require(read == Self.sample, "DocumentChange.none changed the document to \(describe(read))")
    }

    func settingAside() throws(ConformanceProblem) {
        try write(Self.sample)
        let aside = try commit(DocumentChange(settingAside: Self.problem))
        try require(aside.keptAt != nil, "setting a document aside gave no keptAt: say where the document is kept")
        let read = try stored()
        try require(read == nil, "after setting the document aside, read(_:) still gave \(describe(read))")
        try require(try current() == nil, "after setting the document aside, the next transaction was given a document")
        try write(Self.sample)
        let replaced = try commit(DocumentChange(bytes: Self.other, settingAside: Self.problem))
        try require(replaced.keptAt != nil, "setting a document aside and writing new bytes gave no keptAt")
        let now = try stored()
        try require(now == Self.other, "after setting a document aside and writing new bytes, read(_:) gave \(describe(now))")
    }

    /// Commits `bytes` to `key` (this check's own by default) in a transaction that waits.
    func write(_ bytes: Data, to key: String? = nil) throws(ConformanceProblem) {
        _ = try commit(DocumentChange(bytes: bytes), to: key)
    }

    /// Commits `change` to `key` (this check's own by default) in a transaction that waits.
    func commit(_ change: DocumentChange, to key: String? = nil) throws(ConformanceProblem) -> DocumentCommit<Void> {
        let key = key ?? self.key
        let commit = try attempt("a transaction writing a document") { () throws(StorageError) in
            try storage.transaction(key, waits: true) { _ in DocumentDecision((), change: change) }
        }
        guard let commit else {
            throw ConformanceProblem(text: "a transaction with waits: true returned nil on a key no one held")
        }
        return commit
    }

    /// The bytes `read(_:)` gives for `key` (this check's own by default).
    func stored(_ key: String? = nil) throws(ConformanceProblem) -> Data? {
        let key = key ?? self.key
        return try attempt("read(_:)") { () throws(StorageError) in try storage.read(key) }?.bytes
    }

    /// The bytes a transaction on this check's key is given.
    func current() throws(ConformanceProblem) -> Data? {
        var given: Data?
        let commit = try attempt("a transaction changing nothing") { () throws(StorageError) in
            try storage.transaction(key, waits: true) { current in
                given = current?.bytes
                return DocumentDecision(())
            }
        }
        try require(commit != nil, "a transaction with waits: true returned nil on a key no one held")
        return given
    }

    /// Fails the check unless `body` throws ``StorageError/invalidKey(_:reason:)``.
    private func expectInvalidKey(_ call: String, _ body: () throws(StorageError) -> Void) throws(ConformanceProblem) {
        do {
            try body()
        } catch {
            guard case .invalidKey = error else {
                throw ConformanceProblem(text: "\(call) threw “\(error)” instead of StorageError.invalidKey")
            }
            return
        }
        throw ConformanceProblem(text: "\(call) did not throw StorageError.invalidKey")
    }
}

/// `bytes` in a few words: "nil", "12 bytes (“hello world!”)".
func describe(_ bytes: Data?) -> String {
    guard let bytes else { return "nil" }
    let text = String(decoding: bytes.prefix(40), as: UTF8.self).debugDescription
    return "\(bytes.count) bytes (\(text)\(bytes.count > 40 ? "…" : ""))"
}

/// `value` in a few words, or "nil".
func describe<Value>(_ value: Value?) -> String {
    value.map { "\($0)" } ?? "nil"
}
