import Foundation

/// The checks of a storage's locks, with threads of their own: a busy key, concurrent
/// writers, a transaction inside another. Every wait is bounded (``ConformanceWait``), so a
/// storage that deadlocks fails the check.
struct ThreadChecks<Storage: StoreStorage>: Sendable {
    let bytes: ByteChecks<Storage>

    var storage: Storage { bytes.storage }
    var key: String { bytes.key }

    /// How many threads write at once, and how many increments each makes.
    static var writers: Int { 4 }
    static var increments: Int { 25 }

    func busyKey() throws(ConformanceProblem) {
        let (storage, key) = (storage, key)
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let problems = SharedValue<[String]>([])
        let holder = ConformanceWait.onThread {
            do {
                let commit = try storage.transaction(key, waits: true) { _ in
                    held.signal()
                    if !ConformanceWait.wait(for: release) { problems.withLock { $0.append("the holder was never released") } }
                    return DocumentDecision(())
                }
                if commit == nil { problems.withLock { $0.append("a transaction with waits: true returned nil") } }
            } catch {
                problems.withLock { $0.append("the transaction holding the key threw “\(error)”") }
            }
        }
        guard ConformanceWait.wait(for: held) else {
            release.signal()
            throw ConformanceProblem(text: "the body of a transaction on a free key did not run within a minute")
        }
        // The transaction that must not wait runs on a thread of its own, so that a storage
        // that waits anyway can't stop the check.
        let tryout = SharedValue<(returned: Bool, commit: Bool, ran: Bool, error: String?)>((false, false, false, nil))
        let tried = ConformanceWait.onThread {
            do {
                let commit = try storage.transaction(key, waits: false) { _ in
                    tryout.withLock { $0.ran = true }
                    return DocumentDecision(())
                }
                tryout.withLock { $0.commit = commit != nil }
            } catch {
                tryout.withLock { $0.error = "\(error)" }
            }
            tryout.withLock { $0.returned = true }
        }
        let returnedAtOnce = ConformanceWait.wait(for: tried, atMost: ConformanceWait.atOnce)
        release.signal()
        let finished = ConformanceWait.wait(for: holder) && (returnedAtOnce || ConformanceWait.wait(for: tried))
        try require(finished, "the transactions had not finished a minute after the key was released")
        try require(
            returnedAtOnce,
            "while another thread held the key, a transaction with waits: false waited (it had not returned after 10 seconds)")
        let result = tryout.value
        try require(result.error == nil, "while another thread held the key, waits: false threw “\(result.error ?? "")”")
        try require(!result.ran, "while another thread held the key, a transaction with waits: false ran its body")
        try require(!result.commit, "while another thread held the key, a transaction with waits: false did not return nil")
        if let first = problems.value.first { throw ConformanceProblem(text: first) }
        let after = try attempt("a transaction with waits: false on a released key") { () throws(StorageError) in
            try storage.transaction(key, waits: false) { _ in DocumentDecision(()) }
        }
        try require(after != nil, "once the other thread released the key, a transaction with waits: false still returned nil")
    }

    func concurrentTransactions() throws(ConformanceProblem) {
        let (storage, key) = (storage, key)
        let inside = SharedValue(0)
        let problems = SharedValue<[String]>([])
        let writers = (0..<Self.writers).map { _ in
            ConformanceWait.onThread {
                for _ in 0..<Self.increments {
                    do {
                        let commit = try storage.transaction(key, waits: true) { current in
                            Self.increment(current, inside: inside, problems: problems)
                        }
                        if commit == nil { problems.withLock { $0.append("a transaction with waits: true returned nil") } }
                    } catch {
                        problems.withLock { $0.append("a transaction threw “\(error)”") }
                        return
                    }
                }
            }
        }
        let total = Self.writers * Self.increments
        for writer in writers {
            try require(
                ConformanceWait.wait(for: writer),
                "\(total) transactions from \(Self.writers) threads had not finished after a minute (a deadlock?)")
        }
        if let first = problems.value.first { throw ConformanceProblem(text: first) }
        let final = try bytes.stored().flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
        try require(
            final == total,
            "\(Self.writers) threads made \(total) increments of a counter at once, and it reads \(final): "
                + "\(total - final) updates were lost")
    }

    /// The decision of one increment of the counter `current` holds, noting in `problems` a body
    /// that runs while another of the same key runs (`inside` counts them).
    private static func increment(
        _ current: StoredBytes?, inside: SharedValue<Int>, problems: SharedValue<[String]>
    ) -> DocumentDecision<Void> {
        let together = inside.withLock {
            $0 += 1
            return $0
        }
        defer { inside.withLock { $0 -= 1 } }
        if together > 1 {
            problems.withLock { $0.append("the bodies of two transactions of one key ran at the same time") }
        }
        guard let count = Int(current.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "0") else {
            problems.withLock { $0.append("a transaction was given \(describe(current?.bytes)), not the count written") }
            return DocumentDecision(())
        }
        return DocumentDecision((), change: DocumentChange(bytes: Data("\(count + 1)".utf8)))
    }

    func nestedTransaction() throws(ConformanceProblem) {
        let (storage, key) = (storage, key)
        let inner = "\(key)-inner"
        let outcome = SharedValue<String?>("the transactions had not returned after a minute (a deadlock?)")
        let done = ConformanceWait.onThread {
            do {
                let outer = try storage.transaction(key, waits: true) { _ throws(StorageError) in
                    let nested = try storage.transaction(inner, waits: true) { _ in
                        DocumentDecision("inner", change: DocumentChange(bytes: ByteChecks<Storage>.other))
                    }
                    return DocumentDecision(nested?.result, change: DocumentChange(bytes: ByteChecks<Storage>.sample))
                }
                let problem: String? =
                    switch outer.map(\.result) {
                    case nil: "the outer transaction, with waits: true, returned nil"
                    case nil?: "the inner transaction, with waits: true, returned nil"
                    case "inner"?: nil
                    case let other?: "the inner transaction returned “\(other ?? "")”, not its body's result"
                    }
                outcome.withLock { $0 = problem }
            } catch {
                outcome.withLock { $0 = "a transaction inside another threw “\(error)”" }
            }
        }
        _ = ConformanceWait.wait(for: done)
        if let problem = outcome.value { throw ConformanceProblem(text: problem) }
        let outerBytes = try bytes.stored()
        try require(outerBytes == ByteChecks<Storage>.sample, "the outer transaction's document reads \(describe(outerBytes))")
        let innerBytes = try bytes.stored(inner)
        try require(innerBytes == ByteChecks<Storage>.other, "the inner transaction's document reads \(describe(innerBytes))")
    }
}
