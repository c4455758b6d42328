#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresLocking

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// The process's one document watcher: it tells subscribers when a document they follow may
/// have a new version on disk.
///
/// One thread serves every subscription of the process. It sleeps in `poll(2)` on a wake-up
/// pipe and, on Linux, an inotify descriptor that watches each subscribed folder (not each
/// file: a document may be replaced by rename, which a watch on the file would miss).
/// Subscriptions without file events — forced polling, Apple platforms, no inotify, the watch limit reached,
/// a folder that does not exist yet — are polled: at each due time the watcher compares the
/// document's ``FileIdentity`` with the last one it saw. With nothing due the thread does not
/// wake up at all. When the last subscription ends the thread closes its descriptors and
/// exits; the next subscription starts a new one.
///
/// Handlers run on the watcher's thread, one at a time, with no lock held, so a handler may
/// subscribe, cancel or read files. A slow handler delays the others' news, not their writes.
final class DocumentWatcher: Sendable {
    /// The watcher every ``FileStorage`` subscribes to.
    static let shared = DocumentWatcher()

    typealias Handler = @Sendable () -> Void

    private struct Subscription {
        let folder: String
        let path: String
        let name: String
        let handler: Handler
        /// The poll interval: always used when `forcesPolling`, else while there are no events.
        let interval: Duration
        let forcesPolling: Bool
        var usesEvents = false
        var identity: FileIdentity?
        var nextPoll: ContinuousClock.Instant
    }

    /// The descriptors of the running thread.
    private struct Loop: Sendable {
        let wakeRead: Int32
        let wakeWrite: Int32
        /// The inotify descriptor, or -1 where there is none.
        let events: Int32
    }

    private struct State {
        var subscriptions: [UInt64: Subscription] = [:]
        /// Folder path → inotify watch descriptor, for folders some subscription follows by events.
        var folderWatches: [String: Int32] = [:]
        var nextID: UInt64 = 0
        var loop: Loop?
    }

    private let state = Locked(State())

    /// Follows the document `name` in `folder`; `handler` runs after each change seen.
    ///
    /// - Parameters:
    ///   - forcesPolling: Poll even where file events exist.
    ///   - interval: The poll interval.
    /// - Returns: The subscription's identifier, for ``cancel(_:)``; `nil` when no thread could
    ///   be started (no free descriptor), in which case nothing is followed.
    func subscribe(
        folder: URL, name: String, forcesPolling: Bool, interval: Duration, handler: @escaping Handler
    ) -> UInt64? {
        let folderPath = folder.filePath
        let path = folder.appending(path: name, directoryHint: .notDirectory).filePath
        var started: Loop?
        var polls = false
        let id = state.withLock { state -> UInt64? in
            if state.loop == nil {
                guard let loop = Self.makeLoop() else { return nil }
                state.loop = loop
                started = loop
            }
            guard let loop = state.loop else { return nil }
            var subscription = Subscription(
                folder: folderPath, path: path, name: name, handler: handler, interval: interval,
                forcesPolling: forcesPolling, identity: FileIdentity.of(path),
                nextPoll: .now + interval)
            if !forcesPolling {
                subscription.usesEvents = Self.watchFolder(folderPath, events: loop.events, in: &state)
            }
            polls = !subscription.usesEvents
            let id = state.nextID
            state.nextID += 1
            state.subscriptions[id] = subscription
            return id
        }
        if let started {
            Thread { self.run(started) }.start()
        } else if polls {
            wake()  // its first poll may be due before the thread's current timeout
        }
        return id
    }

    /// Ends a subscription; the thread exits when it was the last.
    func cancel(_ id: UInt64) {
        let isLast = state.withLock { state -> Bool in
            guard let subscription = state.subscriptions.removeValue(forKey: id) else { return false }
            if subscription.usesEvents { Self.releaseFolder(subscription.folder, in: &state) }
            return state.subscriptions.isEmpty
        }
        if isLast { wake() }
    }

    /// How subscription `id` follows its document right now.
    func mechanism(of id: UInt64) -> StorageWatchMechanism? {
        state.withLock { state in
            state.subscriptions[id].map { $0.usesEvents ? .fileEvents : .polling(interval: $0.interval) }
        }
    }

    // MARK: The thread

    private func run(_ loop: Loop) {
        #if canImport(Glibc)
        // The name `top -H`, `ps -T` and debuggers show for the thread (15 characters at most).
        let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if comm >= 0 {
            _ = write(comm, "SingletonStores", 15)
            close(comm)
        }
        #endif
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            // How long to sleep: until the next poll is due, or until woken.
            let timeout = state.withLock { state -> Int32? in
                if state.subscriptions.isEmpty {
                    state.loop = nil
                    for (_, watch) in state.folderWatches where loop.events >= 0 {
                        _ = inotify(remove: watch, from: loop.events)
                    }
                    state.folderWatches = [:]
                    return nil
                }
                return Self.milliseconds(until: state.subscriptions.values.filter { !$0.usesEvents }.map(\.nextPoll).min())
            }
            guard let timeout else { break }
            var descriptors = [pollfd(fd: loop.wakeRead, events: Int16(POLLIN), revents: 0)]
            if loop.events >= 0 { descriptors.append(pollfd(fd: loop.events, events: Int16(POLLIN), revents: 0)) }
            let ready = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
            if ready < 0, errno != EINTR {
                // Should not happen (the descriptors are ours); don't spin if it does.
                usleep(100_000)
                continue
            }
            if descriptors[0].revents != 0 { drain(loop.wakeRead, &buffer) }
            var changed: [(name: String, watch: Int32, mask: UInt32)] = []
            if descriptors.count > 1, descriptors[1].revents != 0 {
                changed = readEvents(loop.events, &buffer)
            }
            let handlers = state.withLock { state in Self.due(after: changed, loop: loop, in: &state) }
            for handler in handlers { handler() }
        }
        close(loop.wakeRead)
        close(loop.wakeWrite)
        if loop.events >= 0 { close(loop.events) }
    }

    /// The handlers to call for the `events` just read and the polls now due.
    private static func due(
        after events: [(name: String, watch: Int32, mask: UInt32)], loop: Loop, in state: inout State
    ) -> [Handler] {
        var fired = Set<UInt64>()
        for event in events {
            if event.mask & eventQueueOverflowed != 0 {
                // Events were dropped: every event-driven subscription may have missed one.
                for (id, subscription) in state.subscriptions where subscription.usesEvents { fired.insert(id) }
                continue
            }
            // Two paths to one folder (through a link) share its watch.
            let folders = Set(state.folderWatches.filter { $0.value == event.watch }.keys)
            if folders.isEmpty { continue }
            if event.mask & folderGone != 0 {
                // The folder was removed or moved: poll its documents until it is back.
                for folder in folders { state.folderWatches[folder] = nil }
                if event.mask & watchRemoved == 0 { _ = inotify(remove: event.watch, from: loop.events) }
                for (id, subscription) in state.subscriptions
                where folders.contains(subscription.folder) && subscription.usesEvents {
                    state.subscriptions[id]?.usesEvents = false
                    state.subscriptions[id]?.identity = FileIdentity.of(subscription.path)
                    state.subscriptions[id]?.nextPoll = .now + subscription.interval
                    fired.insert(id)
                }
                continue
            }
            for (id, subscription) in state.subscriptions
            where subscription.usesEvents && folders.contains(subscription.folder) && subscription.name == event.name {
                fired.insert(id)
            }
        }
        let now = ContinuousClock.now
        for (id, subscription) in state.subscriptions where !subscription.usesEvents && subscription.nextPoll <= now {
            state.subscriptions[id]?.nextPoll = now + subscription.interval
            if !subscription.forcesPolling, watchFolder(subscription.folder, events: loop.events, in: &state) {
                // The folder has appeared (or the watch limit has room again): events from now on.
                state.subscriptions[id]?.usesEvents = true
            }
            let identity = FileIdentity.of(subscription.path)
            if identity != subscription.identity {
                state.subscriptions[id]?.identity = identity
                fired.insert(id)
            }
        }
        return fired.compactMap { state.subscriptions[$0]?.handler }
    }

    /// Milliseconds from now to `instant` (0 when past, at most a minute); -1 for "no timeout".
    private static func milliseconds(until instant: ContinuousClock.Instant?) -> Int32 {
        guard let instant else { return -1 }
        let left = ContinuousClock.now.duration(to: instant)
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = min(seconds, 60) * 1_000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: milliseconds)
    }

    /// Wakes the thread so it looks at the subscriptions again.
    private func wake() {
        // Written under the lock: the thread closes its pipe only after it has left the state
        // without a loop, so a descriptor seen here is still the pipe's, never a reused number.
        state.withLock { state in
            guard let loop = state.loop else { return }
            var byte: UInt8 = 1
            _ = write(loop.wakeWrite, &byte, 1)  // a full pipe already holds a wake-up
        }
    }

    private func drain(_ descriptor: Int32, _ buffer: inout [UInt8]) {
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    // MARK: Descriptors

    /// A wake-up pipe and, where there is one, an inotify descriptor; `nil` when no pipe could
    /// be made.
    private static func makeLoop() -> Loop? {
        var ends: [Int32] = [-1, -1]
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress) }) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        return Loop(wakeRead: ends[0], wakeWrite: ends[1], events: makeEventDescriptor())
    }

    /// Adds a watch on `folder` (or counts one more user of its watch); whether events now
    /// cover the folder. `false` without inotify, for a missing folder, or at the watch limit.
    private static func watchFolder(_ folder: String, events: Int32, in state: inout State) -> Bool {
        guard events >= 0 else { return false }
        if state.folderWatches[folder] != nil { return true }
        guard let watch = inotify(add: folder, to: events) else { return false }
        state.folderWatches[folder] = watch
        return true
    }

    /// Removes the folder's watch when no event-driven subscription uses it any more.
    private static func releaseFolder(_ folder: String, in state: inout State) {
        let stillUsed = state.subscriptions.values.contains { $0.folder == folder && $0.usesEvents }
        guard !stillUsed, let watch = state.folderWatches.removeValue(forKey: folder) else { return }
        // Another path to the same folder may share the watch.
        guard !state.folderWatches.values.contains(watch) else { return }
        if let events = state.loop?.events, events >= 0 { _ = inotify(remove: watch, from: events) }
    }
}

// MARK: inotify

#if canImport(Glibc)
private let eventQueueOverflowed = UInt32(IN_Q_OVERFLOW)
private let watchRemoved = UInt32(IN_IGNORED)
private let folderGone = UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)

/// A new inotify descriptor, or -1.
private func makeEventDescriptor() -> Int32 {
    inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
}

/// Watches `folder` for documents renamed into it, written, or closed after writing; `nil` when
/// it can't (missing folder, watch limit reached, a fault injected by a test).
///
/// A write counts by itself: a writer that keeps its document open between writes (see
/// `KeptFiles`) closes nothing after one. The event comes once the write is done, so a reader
/// woken by it finds the new slot whole; the writer's flush may still be running, as it may
/// for any reader that reads while a write is made.
private func inotify(add folder: String, to events: Int32) -> Int32? {
    if FileFaults.injected(.watchFolder) != nil { return nil }
    let mask = UInt32(IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    let watch = inotify_add_watch(events, folder, mask)
    return watch >= 0 ? watch : nil
}

private func inotify(remove watch: Int32, from events: Int32) -> Bool {
    inotify_rm_watch(events, watch) == 0
}

/// Reads the pending events: the name each concerns (empty for the folder itself), its watch
/// and its mask. Malformed lengths end the read; nothing the kernel sends can trap.
private func readEvents(_ events: Int32, _ buffer: inout [UInt8]) -> [(name: String, watch: Int32, mask: UInt32)] {
    var result: [(name: String, watch: Int32, mask: UInt32)] = []
    while true {
        let count = buffer.withUnsafeMutableBytes { read(events, $0.baseAddress, $0.count) }
        if count <= 0 { return result }
        buffer.withUnsafeBytes { bytes in
            let header = MemoryLayout<inotify_event>.size  // wd, mask, cookie, len: 16 bytes
            var offset = 0
            while offset + header <= count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let start = offset + header
                guard length <= count - start else { break }
                let nameBytes = bytes[start..<(start + length)].prefix { $0 != 0 }
                result.append((String(decoding: nameBytes, as: UTF8.self), watch, mask))
                offset = start + length
            }
        }
    }
}
#else
private let eventQueueOverflowed: UInt32 = 0
private let watchRemoved: UInt32 = 0
private let folderGone: UInt32 = 0
private func makeEventDescriptor() -> Int32 { -1 }
private func inotify(add folder: String, to events: Int32) -> Int32? { nil }
private func inotify(remove watch: Int32, from events: Int32) -> Bool { false }
private func readEvents(_ events: Int32, _ buffer: inout [UInt8]) -> [(name: String, watch: Int32, mask: UInt32)] { [] }
#endif
#endif
