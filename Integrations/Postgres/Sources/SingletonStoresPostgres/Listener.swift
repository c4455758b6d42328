import Foundation
import PostgresNIO
import SingletonStores
import Synchronization

/// The watches of one storage, called from its listening connection.
final class Listener: Sendable {
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

    init(channel: String) { self.channel = channel }

    /// What a commit sends: the id of the storage that made it, a space, the key.
    static func payload(storage: UUID, key: String) -> String { "\(storage.uuidString) \(key)" }

    /// Adds a watch. When the connection already listens, it is called once at once, since a
    /// commit may have been heard before it was added.
    func add(key: String, _ call: @escaping @Sendable () -> Void) -> UUID {
        let token = UUID()
        let listening = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.watchers[token] = Watcher(key: key, call: call)
            return state.listening
        }
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
    }

    func deliver(_ payload: String, own: UUID) {
        guard let space = payload.firstIndex(of: " ") else { return }
        let key = String(payload[payload.index(after: space)...])
        if payload[..<space] == own.uuidString { return }
        let calls = state.withLock { $0.watchers.values.filter { $0.key == key }.map(\.call) }
        calls.forEach { $0() }
    }
}

extension PostgresStorage {
    /// Listens for commits on the storage's channel on one connection of its pool, leased for
    /// as long as it listens, made again after every loss, until the task is cancelled.
    func listen() async {
        var pause = Duration.milliseconds(50)
        let listener = listener
        let identity = identity
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: listener.channel) { notifications in
                        listener.began()
                        pause = .milliseconds(50)
                        for try await notification in notifications {
                            listener.deliver(notification.payload, own: identity)
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
