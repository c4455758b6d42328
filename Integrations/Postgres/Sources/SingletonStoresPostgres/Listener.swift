import Foundation
import PostgresNIO
import SingletonStores
import Synchronization

/// The watches of one storage, called from its listening connection.
package final class Listener: Sendable {
    struct Watcher {
        let key: String
        let call: @Sendable () -> Void
    }

    struct State {
        var watchers: [UUID: Watcher] = [:]
        var listening = false
        var stopped = false
    }

    let channel: String
    let state = Mutex(State())
    /// Says once that a watch was added: the storage listens from then on, not before.
    let wanted = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    init(channel: String) { self.channel = channel }

    /// Returns once a watch has been added (at once when one was), or `false` when the storage
    /// stopped or the task was cancelled first.
    func waitUntilWanted() async -> Bool {
        var iterator = wanted.stream.makeAsyncIterator()
        return await iterator.next() != nil
    }

    /// The most a notification's payload may hold (PostgreSQL refuses 8,000 bytes or more),
    /// less the commit's number and a space, which the server puts first.
    static let payloadLimit = 7999 - 21

    /// What a commit sends, after the commit's number the server puts first: the id of the
    /// storage that made it, the document in base64 (`-` when it is removed or too long to fit),
    /// and the key, separated by spaces.
    static func payload(storage: UUID, key: String, document: Data?) -> String {
        let head = storage.uuidString + " "
        let room = payloadLimit - head.utf8.count - 1 - key.utf8.count
        var carried = "-"
        if let document, document.count <= room / 4 * 3 { carried = document.base64EncodedString() }
        return head + carried + " " + key
    }

    /// A notification's payload read back; `nil` when it is not one of a storage.
    package struct Notice {
        let version: Int64
        let storage: String
        let document: Data?
        let key: String

        package init?(_ payload: String) {
            let parts = payload.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let version = Int64(parts[0]) else { return nil }
            self.version = version
            storage = String(parts[1])
            document = parts[2] == "-" ? nil : Data(base64Encoded: String(parts[2]))
            key = String(parts[3])
        }
    }

    /// Adds a watch. When the connection already listens, it is called once at once, since a
    /// commit may have been heard before it was added.
    func add(key: String, _ call: @escaping @Sendable () -> Void) -> UUID {
        let token = UUID()
        let listening = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.watchers[token] = Watcher(key: key, call: call)
            return state.listening
        }
        wanted.continuation.yield()
        if listening { call() }
        return token
    }

    func remove(_ token: UUID) {
        _ = state.withLock { $0.watchers.removeValue(forKey: token) }
    }

    /// The connection listens (again): every watch is called once.
    func began() {
        let calls = state.withLock { state -> [@Sendable () -> Void] in
            state.listening = true
            return state.watchers.values.map(\.call)
        }
        calls.forEach { $0() }
    }

    func lost() { state.withLock { $0.listening = false } }

    func stopAll() {
        state.withLock { state in
            state.stopped = true
            state.listening = false
            state.watchers = [:]
        }
        wanted.continuation.finish()
    }

    /// Another storage's commit was heard: `hear` takes it in first, then the key's watches are
    /// called. This storage's own are not.
    func deliver(_ payload: String, own: UUID, hear: (Notice) -> Void) {
        guard let notice = Notice(payload), notice.storage != own.uuidString else { return }
        hear(notice)
        let calls = state.withLock { $0.watchers.values.filter { $0.key == notice.key }.map(\.call) }
        calls.forEach { $0() }
    }
}

extension PostgresStorage {
    /// Listens for commits on the storage's channel on one connection of its pool, leased for
    /// as long as it listens, made again after every loss, until the task is cancelled — from the
    /// first watch on: a storage none of whose stores follows a key holds no listening
    /// connection, and takes in no other storage's commit.
    func listen() async {
        let listener = listener
        guard await listener.waitUntilWanted() else { return }
        var pause = Duration.milliseconds(50)
        let identity = identity
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: listener.channel) { notifications in
                        // Commits may have been missed meanwhile: what was heard before is not
                        // answered from; every watch reads the row.
                        self.known.withLock { $0.forgetHeard() }
                        listener.began()
                        pause = .milliseconds(50)
                        for try await notification in notifications {
                            listener.deliver(notification.payload, own: identity) { notice in
                                self.known.withLock { $0.hear(notice) }
                            }
                        }
                    }
                }
            } catch {}
            listener.lost()
            guard !Task.isCancelled else { break }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(1))
        }
    }
}
