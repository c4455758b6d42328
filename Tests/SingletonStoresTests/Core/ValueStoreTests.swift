import SingletonStoresLocking
import SingletonStoresTestSupport
import Foundation
import Observation
import SingletonStores
import Testing

/// `ValueStore`: a persisted, observable, overridable store that is just a value.
@Suite("ValueStore", .ownThread)
struct ValueStoreTests {
    struct Session: Codable, Sendable, Equatable {
        var token = ""
        var logins = 0
    }

    enum SessionError: StoreFailure, Equatable {
        case signedOut
        case storage(StorageError)
    }

    private static func store(in folder: URL, center: NotificationCenter = NotificationCenter()) -> ValueStore<Session> {
        ValueStore(
            key: "session", default: Session(), storage: FileStorage(folder: folder), center: center, watching: .off,
            reportIssue: { _ in })
    }

    @Test func aChangeIsWrittenThenPostedAndReadBackByTheNextLaunch() throws {
        try withTemporaryFolder { folder in
            let center = NotificationCenter()
            let store = Self.store(in: folder, center: center)
            let changes = Recorder<StoreChange<Session>>()
            let token = store.channel.observe(center: center) { changes.append($0) }
            defer { token.cancel() }
            try store.update { $0.token = "t-1" }
            try store.set(Session(token: "t-1", logins: 1))
            #expect(changes.values.map(\.new.logins) == [0, 1])
            #expect(Self.store(in: folder).value == Session(token: "t-1", logins: 1))
            #expect(store.channel.name.rawValue == "SingletonStores.ValueStore.session")
        }
    }

    @Test func aChangeTheBodyRefusesChangesNothingAndPostsNothing() throws {
        try withTemporaryFolder { folder in
            let store = Self.store(in: folder)
            let posts = Recorder<StoreChange<Session>>()
            let token = store.observe { posts.append($0) }
            defer { token.cancel() }
            #expect(throws: SessionError.signedOut) {
                try store.update { (session: inout Session) throws(SessionError) in
                    session.logins += 1
                    throw .signedOut
                }
            }
            #expect(store.value == Session())
            #expect(posts.values.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "session.json").path(percentEncoded: false)))
        }
    }

    /// Counts the encodings of the ``Tally`` values that share it.
    final class Encodings: Sendable {
        let count = Locked(0)
    }

    /// A value that counts each time it is encoded.
    struct Tally: Codable, Sendable, Equatable {
        var value = 0
        let encodings: Encodings

        enum CodingKeys: String, CodingKey { case value }

        init(encodings: Encodings) { self.encodings = encodings }

        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .value)
            encodings = Encodings()
        }

        func encode(to encoder: any Encoder) throws {
            encodings.count.withLock { $0 += 1 }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
        }

        static func == (left: Tally, right: Tally) -> Bool { left.value == right.value }
    }

    @Test func aStubKeepsItsValueAsItIsWithoutEncodingIt() throws {
        let encodings = Encodings()
        let stub = ValueStore(stub: Tally(encodings: encodings))
        let posts = Recorder<Int>()
        let token = stub.observe { posts.append($0.new.value) }
        defer { token.cancel() }
        for _ in 0..<3 { try stub.update { $0.value += 1 } }
        try stub.set(Tally(encodings: encodings))
        #expect(stub.value.value == 0)
        #expect(posts.values == [1, 2, 3, 0])
        #expect(encodings.count.withLock { $0 } == 0)
    }

    @Test func aStubsRefusedChangeLeavesItAsItWasAndPostsNothing() throws {
        let stub = ValueStore(stub: Session(token: "t-0"))
        let posts = Recorder<Int>()
        let token = stub.observe { posts.append($0.new.logins) }
        defer { token.cancel() }
        #expect(throws: SessionError.signedOut) {
            try stub.update { (session: inout Session) throws(SessionError) in
                session.logins += 1
                throw .signedOut
            }
        }
        #expect(stub.value == Session(token: "t-0"))
        #expect(posts.values.isEmpty)
        let logins = try stub.update { (session: inout Session) throws(SessionError) -> Int in
            session.logins += 1
            return session.logins
        }
        #expect(logins == 1)
        #expect(stub.value == Session(token: "t-0", logins: 1))
        #expect(posts.values == [1])
    }

    @Test func aScreenReadingTheValueIsToldOfTheNextChange() throws {
        let stub = ValueStore(stub: Session())
        let told = Locked(0)
        withObservationTracking {
            _ = stub.value.token
        } onChange: {
            told.withLock { $0 += 1 }
        }
        try stub.update { $0.logins += 1 }
        #expect(told.withLock { $0 } == 1)
    }

    @Test func aStoreFollowsWhatAnotherInstanceWrites() async throws {
        try await withTemporaryFolder { folder in
            let follower = ValueStore(
                key: "session", default: Session(), storage: FileStorage(folder: folder), center: NotificationCenter(),
                watching: .automatic, reportIssue: { _ in })
            let writer = Self.store(in: folder)
            try writer.update { $0.token = "from elsewhere" }
            #expect(await waitUntil { follower.value.token == "from elsewhere" })
        }
    }

    @Test func persistentStoreCoreUpdateCanRefuseToo() throws {
        let core = PersistentStoreCore(
            key: "count", default: 0, storage: InMemoryStorage(), channel: NotificationChannel("count"),
            center: NotificationCenter(), watching: .off)
        let doubled = try core.update { (count: inout Int) throws(SessionError) -> Int in
            count += 1
            return count * 2
        }
        #expect(doubled == 2)
        #expect(throws: SessionError.signedOut) {
            try core.update { (count: inout Int) throws(SessionError) -> Void in
                count = 100
                throw .signedOut
            }
        }
        #expect(core.state == 1)
    }
}
