// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The doc-comment examples of the internal locking module (Sources/Locking) that need nothing
// else, verbatim between the markers, so that they always compile; QuickStartTests/
// DocCommentSnippetTests checks that they match. The examples that need a store are mirrored in
// SingletonStoresTests/DocComments.
import Dispatch
import SingletonStoresLocking
import Testing

/// A feed that posts its changes with an `Outbox`, as the `Outbox` example does.
private final class OutboxFeed: Sendable {
    struct State {
        var outbox = Outbox<Int>()
    }

    let state = Locked(State())
    let delivered = Locked<[Int]>([])
    /// Called with each delivered change, outside the lock; may send more changes.
    let onDeliver: @Sendable (OutboxFeed, Int) -> Void

    init(onDeliver: @escaping @Sendable (OutboxFeed, Int) -> Void = { _, _ in }) {
        self.onDeliver = onDeliver
    }

    func deliver(_ change: Int) {
        delivered.withLock { $0.append(change) }
        onDeliver(self, change)
    }

    func send(_ change: Int) {
// Doc "Locking/Outbox.swift" snippet 1: begin
let first = state.withLock { $0.outbox.deliverOrQueue(change) }  // commit and queue
guard let first else { return }           // another thread is delivering: it posts ours too
deliver(first)
while true {
    let batch = state.withLock { $0.outbox.takeBatch() }
    if batch.isEmpty { return }            // an empty batch ended the delivery
    batch.forEach(deliver)
}
// Doc "Locking/Outbox.swift" snippet 1: end
    }
}

@Suite struct LockingDocCommentTests {
    @Test func outboxDeliversInOrderWithoutNesting() {
        // A change delivered below 3 sends the next one from inside its handler: it is queued
        // and delivered after the current one returns, never nested.
        let feed = OutboxFeed { feed, change in
            if change < 3 { feed.send(change + 1) }
        }
        feed.send(1)
        #expect(feed.delivered.withLock { $0 } == [1, 2, 3])
        feed.send(10)  // the delivery ended: the next change is delivered at once
        #expect(feed.delivered.withLock { $0 } == [1, 2, 3, 10])
    }

    @Test func outboxDeliversEveryChangeFromManyThreads() {
        let feed = OutboxFeed()
        DispatchQueue.concurrentPerform(iterations: 200) { feed.send($0) }
        #expect(feed.delivered.withLock { $0 }.sorted() == Array(0..<200))
    }

    @Test func escapingControlCharacters() {
// Doc "Locking/String+Escaping.swift" snippet 1: begin
let shown = "Aki\ngender: female\u{1B}]0;owned\u{07}".escapingControlCharacters
// Aki\ngender: female\u{1B}]0;owned\u{7}   (one line, printed as these characters)
// Doc "Locking/String+Escaping.swift" snippet 1: end
        #expect(shown == #"Aki\ngender: female\u{1B}]0;owned\u{7}"#)
    }

    @Test func escapingControlCharactersLeavingBackslashes() {
// Doc "Locking/String+Escaping.swift" snippet 2: begin
let shown = "could not open /tmp/a\\u{1B}b: \u{1B}[2Jgone".escapingControlCharactersLeavingBackslashes
// could not open /tmp/a\u{1B}b: \u{1B}[2Jgone   (the first escape as it was, the second made)
// Doc "Locking/String+Escaping.swift" snippet 2: end
        #expect(shown == #"could not open /tmp/a\u{1B}b: \u{1B}[2Jgone"#)
        #expect("a\n\u{202E}\u{85}".escapingControlCharactersLeavingBackslashes == #"a\n\u{202E}\u{85}"#)
        #expect("plain \\ text".escapingControlCharactersLeavingBackslashes == "plain \\ text")
    }

    @Test func escapingControlCharactersInJSON() {
// Doc "Locking/String+Escaping.swift" snippet 3: begin
let shown = "{\"nickname\":\"Aki\u{9B}31m\"}".escapingControlCharactersInJSON
// {"nickname":"Aki\u009B31m"}   (still valid JSON: the same strings once decoded)
// Doc "Locking/String+Escaping.swift" snippet 3: end
        #expect(shown == #"{"nickname":"Aki\u009B31m"}"#)
        #expect("a\\b \u{202E} \u{85}".escapingControlCharactersInJSON == #"a\b \u202E \u0085"#, "a backslash is kept")
    }
}
