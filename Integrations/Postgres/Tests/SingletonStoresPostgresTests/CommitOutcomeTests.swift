import Foundation
import PostgresNIO
import SingletonStores
import SingletonStoresPostgres
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection cut while an update commits: the storage finds out, by the commit id, whether the
/// commit was made, and neither loses the update nor makes it twice.
@Suite(.enabled(if: TestDatabase.isAvailable, TestDatabase.skipReason))
struct CommitOutcomeTests {
    let table = TestDatabase.freshTable()

    /// The write that is cut: the one-round-trip write decided on what the storage last saw of
    /// the row, or the write after taking the lock and reading (a document too large to be
    /// remembered takes that way).
    enum Path: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case guessed = "_write_if_v8"
        case locked = "_write_v8"
        var testDescription: String { self == .guessed ? "the write on a guess" : "the write under the lock" }
    }

    /// A count, padded (for the locked way) beyond what a storage remembers of a row.
    struct Padded: Codable, Sendable, Equatable {
        var count: Int
        var padding: String
    }

    @Test(arguments: [CuttingProxy.Cut.beforeTheServerHasIt, .afterTheServerCommitted], Path.allCases)
    func aConnectionCutDuringTheWriteIsResolvedByTheCommitID(_ cut: CuttingProxy.Cut, _ path: Path) async throws {
        let (proxy, throughProxy) = try CuttingProxy.inFrontOfTheTestServer()
        defer { proxy.stop() }
        try await withRunningStorages(url: throughProxy, options: .init(table: table)) { storages in
            let storage = storages[0]
            let padding = path == .locked ? String(repeating: "x", count: 70_000) : ""
            let counter = try await SharedValueStore(
                key: "counter", default: Padded(count: 0, padding: padding), storage: storage, follows: false)
            try await counter.update { $0.count = 10 }
            let runs = Mutex(0)
            proxy.arm(cut, when: path.rawValue)
            let result = try await counter.update { (value: inout Padded) -> Int in
                runs.withLock { $0 += 1 }
                value.count += 1
                return value.count
            }
            #expect(proxy.cuts == 1, "the proxy did not cut the write")
            #expect(result == 11)
            #expect(counter.value.count == 11)
            // Committed: found and reported once; not committed: the body ran again.
            #expect(runs.withLock { $0 } == (cut == .afterTheServerCommitted ? 1 : 2))
            #expect(storage.roundTrips.lastCommit > (path == .guessed ? 1 : 2))
            let stored = try await storage.read("counter")
            let text = stored.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
            #expect(text.contains("\"count\" : 11"), "stored: \(text.prefix(200))")
        }
    }
}

extension CommitOutcomeTests {
    /// Cut after the commit, and the server out of reach until the storage gives up: the outcome
    /// is unknown, and the store says so (`commitOutcomeUnknown`, demo-postgres's exit 75).
    @Test func anOutcomeThatCantBeFoundOutIsReportedAsUnknown() async throws {
        let (proxy, throughProxy) = try CuttingProxy.inFrontOfTheTestServer()
        defer { proxy.stop() }
        let options = PostgresStorage.Options(table: table, reachTimeout: .seconds(2))
        try await withRunningStorages(url: throughProxy, options: options) { storages in
            let counter = try await SharedValueStore(key: "counter", default: 0, storage: storages[0], follows: false)
            try await counter.set(10)
            proxy.arm(.afterTheServerCommitted, when: CommitOutcomeTests.Path.guessed.rawValue, thenUnreachable: true)
            do throws(StorageError) {
                try await counter.update { $0 += 1 }
                Issue.record("the update said it was done")
            } catch {
                guard case .commitOutcomeUnknown(let backend, let key, _) = error else {
                    Issue.record("expected commitOutcomeUnknown, got \(error)")
                    return
                }
                #expect(key == "counter")
                #expect(backend.contains("127.0.0.1:\(proxy.port)"))
            }
        }
        // It was committed: read directly from the server.
        try await withRunningStorages(options: .init(table: table)) { storages in
            let stored = try await storages[0].read("counter")
            #expect(stored.map { String(decoding: $0.bytes, as: UTF8.self) }?.contains("\"value\" : 11") == true)
        }
    }
}

extension CommitOutcomeTests {
    /// A writer's machine gone from the network while it holds a key between the round trips of
    /// an update (its write never arrives, and the server never hears that it is gone): the
    /// server ends that session once it has held the key idle for twice the writer's lock
    /// timeout, at least 10 s, so the writers of every other machine go on; and the writer
    /// itself, back, finds its write was not made and makes it once.
    @Test func aWriterGoneFromTheNetworkHoldingAKeyHoldsItOnlyForABoundedTime() async throws {
        let (proxy, throughProxy) = try CuttingProxy.inFrontOfTheTestServer()
        defer { proxy.stop() }
        let padding = String(repeating: "x", count: 70_000)  // takes the way under the key's lock
        let gone = PostgresStorage.Options(table: table, lockTimeout: .seconds(2), reachTimeout: .seconds(30))
        try await withRunningStorages(url: throughProxy, options: gone) { goneStorages in
            let goneCounter = try await SharedValueStore(
                key: "counter", default: Padded(count: 0, padding: padding), storage: goneStorages[0], follows: false)
            try await goneCounter.update { $0.count = 10 }
            proxy.arm(.silence, when: Path.locked.rawValue)
            let goneWrite = Task { () throws(StorageError) -> Int in
                try await goneCounter.update { (value: inout Padded) -> Int in
                    value.count += 1
                    return value.count
                }
            }
            while proxy.cuts == 0 { try await Task.sleep(for: .milliseconds(10)) }
            // Another machine, which waits for the key up to 20 s: the one gone keeps it 10.
            let other = PostgresStorage.Options(table: table, lockTimeout: .seconds(20))
            let otherResult = try await withRunningStorages(options: other) { storages in
                let counter = try await SharedValueStore(
                    key: "counter", default: Padded(count: 0, padding: ""), storage: storages[0], follows: false)
                return try await counter.update { (value: inout Padded) -> Int in
                    value.count += 1
                    return value.count
                }
            }
            let goneResult = try await goneWrite.value
            // Each write made once, in either order (the one gone may find the key first once
            // the server let it go).
            #expect([otherResult, goneResult].sorted() == [11, 12], "the other's \(otherResult), the one gone's \(goneResult)")
        }
        try await withRunningStorages(options: .init(table: table)) { storages in
            let stored = try await storages[0].read("counter")
            #expect(stored.map { String(decoding: $0.bytes, as: UTF8.self) }?.contains("\"count\" : 12") == true)
        }
    }
}

/// A TCP proxy in front of the test server that cuts the connection carrying a statement once,
/// before the server gets it or after the server answered it (its answer never reaches the client);
/// or, once told to (``cutAtRandom(probability:seed:)``), cuts connections at random points.
final class CuttingProxy: @unchecked Sendable {
    enum Cut: Sendable, CustomTestStringConvertible {
        case beforeTheServerHasIt
        case afterTheServerCommitted
        /// Nothing passes any more either way, and both ends stay open: the client's machine
        /// gone from the network, as the server sees it.
        case silence
        var testDescription: String {
            switch self {
            case .beforeTheServerHasIt: "before the server has it"
            case .afterTheServerCommitted: "after the server committed"
            case .silence: "silence from then on"
            }
        }
    }

    struct State {
        var armed: (cut: Cut, marker: [UInt8])?
        var cuts = 0
        var sockets: [Int32] = []
        var stopped = false
        /// After its cut, the proxy turns every new connection away: the server is out of reach.
        var unreachableAfterCut = false
        /// Cuts at random: the chance that a piece of traffic, either way, is the last of its
        /// connection, and the generator that draws it and how much of the piece still passes.
        var random: (probability: Double, generator: SplitMix)?
    }

    /// A generator of numbers from a seed, so that a run's cuts can be drawn again.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    let listener: Int32
    let port: Int
    let serverPort: Int
    let state = Mutex(State())

    init(serverPort: Int) throws {
        self.serverPort = serverPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else { throw TestFailure("the proxy could not listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// A proxy in front of the test server, and the test server's URL through it.
    static func inFrontOfTheTestServer() throws -> (proxy: CuttingProxy, url: String) {
        guard let url = TestDatabase.url, var components = URLComponents(string: url), let port = components.port,
            let proxy = try? CuttingProxy(serverPort: port)
        else { throw TestFailure("no URL, or no proxy") }
        components.port = proxy.port
        guard let throughProxy = components.string else {
            proxy.stop()
            throw TestFailure("no URL through the proxy")
        }
        return (proxy, throughProxy)
    }

    var cuts: Int { state.withLock { $0.cuts } }

    func arm(_ cut: Cut, when marker: String, thenUnreachable: Bool = false) {
        state.withLock {
            $0.armed = (cut, Array(marker.utf8))
            $0.unreachableAfterCut = thenUnreachable
        }
    }

    /// From now on, each piece of traffic that passes, either way, is with `probability` the last
    /// of its connection: a random part of it passes, then both ends are cut.
    func cutAtRandom(probability: Double, seed: UInt64) {
        state.withLock { $0.random = (probability, SplitMix(state: seed)) }
    }

    /// Stops accepting and ends every connection. Their sockets are closed by their pumps, under
    /// the state's lock, so none is shut down here once its number may name another file.
    func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            if state.withLock({ $0.unreachableAfterCut && $0.cuts > 0 }) {
                close(client)
                continue
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(serverPort).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            state.withLock { $0.sockets += [client, server] }
            let cutAfterReply = Shared(false)
            let silenced = Shared(false)
            let pumping = Shared(2)
            // The second pump to end closes both sockets: a proxy that cuts hundreds of
            // connections keeps no descriptors of theirs (a test process holding thousands makes
            // each process it starts close each of them in the child).
            let ended: @Sendable () -> Void = { [self] in
                guard
                    pumping.withLock({
                        $0 -= 1; return $0
                    }) == 0
                else { return }
                state.withLock { state in
                    state.sockets.removeAll { $0 == client || $0 == server }
                    close(client)
                    close(server)
                }
            }
            Thread.detachNewThread { [self] in
                pump(from: client, to: server, cutAfterReply: cutAfterReply, silenced: silenced, upstream: true)
                ended()
            }
            Thread.detachNewThread { [self] in
                pump(from: server, to: client, cutAfterReply: cutAfterReply, silenced: silenced, upstream: false)
                ended()
            }
        }
    }

    private func pump(
        from source: Int32, to destination: Int32, cutAfterReply: Shared<Bool>, silenced: Shared<Bool>, upstream: Bool
    ) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            var chunk = Array(buffer[0..<count])
            let randomCut = state.withLock { state -> Bool in
                guard var random = state.random else { return false }
                defer { state.random = random }
                guard Double.random(in: 0..<1, using: &random.generator) < random.probability else { return false }
                state.cuts += 1
                chunk = Array(chunk.prefix(Int.random(in: 0...chunk.count, using: &random.generator)))
                return true
            }
            if randomCut {
                Self.transmit(chunk, to: destination)
                break
            }
            if upstream {
                let (cut, others) = state.withLock { state -> (Cut?, [Int32]) in
                    guard let armed = state.armed, Self.contains(chunk, armed.marker) else { return (nil, []) }
                    state.armed = nil
                    state.cuts += 1
                    // The server out of reach is out of reach on every connection: the storage's
                    // other connections through the proxy (a second one of its pool) are cut too,
                    // so that none of them finds the outcome out.
                    let others = state.unreachableAfterCut ? state.sockets.filter { $0 != source && $0 != destination } : []
                    return (armed.cut, others)
                }
                for socket in others { shutdown(socket, Int32(SHUT_RDWR)) }
                if cut == .silence { silenced.withLock { $0 = true } }
                if cut == .beforeTheServerHasIt { break }
                if cut == .afterTheServerCommitted { cutAfterReply.withLock { $0 = true } }
            } else if cutAfterReply.withLock({ $0 }) {
                break
            }
            if silenced.withLock({ $0 }) { continue }
            Self.transmit(chunk, to: destination)
        }
        // Silenced, an end that closes is not heard of at the other: its machine is out of reach.
        shutdown(source, Int32(SHUT_RDWR))
        if !silenced.withLock({ $0 }) { shutdown(destination, Int32(SHUT_RDWR)) }
    }

    /// Sends all of `bytes` to `socket`, or as much as it takes before it fails.
    private static func transmit(_ bytes: [UInt8], to socket: Int32) {
        var sent = 0
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return -1 }
                return send(socket, base + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return }
            sent += written
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }
}
