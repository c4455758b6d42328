/// How a persisted store follows the changes other processes (or other storage instances)
/// commit to its document.
///
/// ```swift
/// // The default: file events where the platform has them, else a poll every 250 ms.
/// let live = PersistentStoreCore(key: "settings", default: Settings(), storage: FileStorage(),
///                                channel: .settings)
/// // Only this process writes the document: don't watch it.
/// let solo = PersistentStoreCore(key: "settings", default: Settings(), storage: FileStorage(),
///                                channel: .settings, watching: .off)
/// ```
///
/// With file events (inotify on Linux) a change arrives within milliseconds. Polling compares
/// the document's identity — its inode, size, modification time and the sequence number of its
/// current version (see <doc:HowADocumentIsStored>) — at each interval, so a
/// change arrives within one interval. On Apple platforms watching always polls.
public struct StorageWatching: Sendable, Hashable, CustomStringConvertible {
    enum Mode: Hashable {
        case off
        case automatic(fallbackInterval: Duration)
        case polling(interval: Duration)
    }

    let mode: Mode

    /// The poll interval used when file events are not available: 250 milliseconds.
    public static let defaultPollInterval: Duration = .milliseconds(250)

    /// The shortest poll interval accepted: 10 milliseconds. Shorter intervals are raised to it.
    public static let minimumPollInterval: Duration = .milliseconds(10)

    /// The longest poll interval accepted: one hour. Longer intervals are lowered to it.
    public static let maximumPollInterval: Duration = .seconds(3600)

    /// File events where the platform offers them (inotify on Linux); otherwise — on Apple
    /// platforms, when inotify is unavailable or its per-user watch limit is reached, and while
    /// the data folder does not exist yet — a poll every ``defaultPollInterval``.
    public static let automatic = StorageWatching(mode: .automatic(fallbackInterval: defaultPollInterval))

    /// No watching: the store reads its document at launch and at each of its own writes.
    public static let off = StorageWatching(mode: .off)

    /// A poll of the document's identity every `interval`, even where file events exist.
    ///
    /// - Parameter interval: The time between two looks; clamped to
    ///   ``minimumPollInterval``…``maximumPollInterval``.
    public static func polling(every interval: Duration) -> StorageWatching {
        StorageWatching(mode: .polling(interval: clamped(interval)))
    }

    /// `interval` within ``minimumPollInterval``…``maximumPollInterval``.
    static func clamped(_ interval: Duration) -> Duration {
        min(max(interval, minimumPollInterval), maximumPollInterval)
    }

    /// Whether the store watches at all: `false` only for ``off``.
    public var isOn: Bool {
        if case .off = mode { return false }
        return true
    }

    /// `automatic`, `off`, or `polling every 0.25 seconds`.
    public var description: String {
        switch mode {
        case .off: "off"
        case .automatic: "automatic"
        case .polling(let interval): "polling every \(interval)"
        }
    }
}
