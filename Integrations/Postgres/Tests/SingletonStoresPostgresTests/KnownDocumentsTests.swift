import Foundation
import Testing

import SingletonStoresPostgres

/// What a storage keeps of the rows it read, made and heard of: the guess an update decides on,
/// and what a follower takes a change from without a round trip. No server is needed.
struct KnownDocumentsTests {
    typealias Known = PostgresStorage.KnownDocuments

    static func notice(_ version: Int64, _ document: String?, key: String = "k") throws -> Listener.Notice {
        let carried = document.map { Data($0.utf8).base64EncodedString() } ?? "-"
        return try #require(Listener.Notice("\(version) \(UUID().uuidString) \(carried) \(key)"))
    }

    /// A read that started before a newer commit was heard, and returns the older row after it:
    /// the older bytes are not kept as the guess, which would miss.
    @Test func aReadOlderThanANotificationHeardIsNotKeptAsTheGuess() throws {
        var known = Known()
        known.remember("k", Data("v5".utf8), version: 5)
        known.hear(try Self.notice(7, "v7"))
        known.remember("k", Data("v6".utf8), version: 6)
        #expect(known.guess("k") == .bytes(Data("v7".utf8)))
        #expect(known.takeHeard("k") == Data("v7".utf8))
    }

    /// Bytes of an older commit than one the storage made are not kept either.
    @Test func aReadOlderThanAnOwnCommitIsNotKept() {
        var known = Known()
        known.remember("k", Data("mine".utf8), version: 9)
        known.remember("k", Data("older".utf8), version: 8)
        #expect(known.guess("k") == .bytes(Data("mine".utf8)))
        known.remember("k", Data("newer".utf8), version: 10)
        #expect(known.guess("k") == .bytes(Data("newer".utf8)))
    }

    /// A notification newer than what was seen is answered from once; one the storage's own
    /// read already crossed (not newer than what it read) is answered from what it read.
    @Test func aNotificationAReadCrossedIsAnsweredFromWhatTheReadGot() throws {
        var known = Known()
        known.remember("k", Data("v1".utf8), version: 1)
        known.hear(try Self.notice(2, "v2"))
        #expect(known.takeHeard("k") == Data("v2".utf8))
        // The same change's notification came after a read that already had it.
        known.remember("k", Data("v3".utf8), version: 3)
        known.hear(try Self.notice(3, "v3"))
        #expect(known.takeHeard("k") == Data("v3".utf8))
        #expect(known.takeHeard("k") == Data("v3".utf8), "nothing newer was announced: still no read needed")
    }

    /// Whenever the storage can't be sure it has the newest commit announced, the row is read.
    @Test func theRowIsReadWhenTheNewestAnnouncedCommitIsNotKnown() throws {
        var known = Known()
        // Nothing announced since listening began (the connection was just made again).
        known.remember("k", Data("v1".utf8), version: 1)
        #expect(known.takeHeard("k") == nil)
        // A newer commit announced without its document (too long to carry).
        known.hear(try Self.notice(2, nil))
        #expect(known.takeHeard("k") == nil)
        known.remember("k", Data("v2".utf8), version: 2)
        #expect(known.takeHeard("k") == Data("v2".utf8))
        // Listening began again: notifications may have been missed.
        known.forgetHeard()
        #expect(known.takeHeard("k") == nil)
        // A row without a commit number (a table made before they were kept) is never answered from memory.
        var unnumbered = Known()
        unnumbered.remember("k", Data("x".utf8), version: nil)
        unnumbered.hear(try Self.notice(1, nil))
        #expect(unnumbered.takeHeard("k") == nil)
        // A key this storage forgot (a write whose outcome it did not learn) is read.
        known.hear(try Self.notice(2, "v2"))
        known.forget("k")
        #expect(known.takeHeard("k") == nil)
    }
}
