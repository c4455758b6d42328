import Foundation

/// What `cost-benchmarks` measured in one run: the costs an app feels beyond a single call.
/// `benchmark-table --costs PATH` turns it into rows.
public struct CostResults: Codable, Sendable {
    /// Persisted updates, ours against the limit and `UserDefaults`.
    public var persisted: PersistedUpdateResult?
    /// Cross-process latency by path: `events`, `poll` and the limit, `inotify`.
    public var latency: [String: LatencyResult] = [:]
    /// The polling interval of the `poll` path, in milliseconds.
    public var pollIntervalMilliseconds: Double = 50
    /// CPU time and wake-ups of a countdown by variant: `ours`, `naive` and `limit`.
    public var energy: [String: EnergyResult] = [:]
    /// Idle persisted stores, watching and not.
    public var idle: IdleResult?
    /// `demo-cli` launches against growing purchase histories.
    public var history: HistoryResult?
    /// Launches that open persisted values and read them: ours, `UserDefaults`, GRDB.
    public var launch: LaunchResult?
    /// A persisted value changed like a dragged slider: ours, `UserDefaults`, GRDB.
    public var slider: SliderResult?
    /// Memory, descriptors and threads as persisted, watching stores are added.
    public var handles: HandlesResult?

    /// An empty result, filled row by row.
    public init() {}
}

/// One persisted update of a profile-sized document.
public struct PersistedUpdateResult: Codable, Sendable {
    /// Ours against the limit of the same durability (temporary file, fsync, rename, fsync of
    /// the folder), timed in interleaved blocks.
    public var ours: PairedRatio
    /// `UserDefaults` set + `synchronize()`, per update, in nanoseconds.
    public var userDefaultsNanoseconds: Double
    /// The size of the document in bytes.
    public var documentBytes: Int
    /// Every writer's block times (nanoseconds per write), by ``PersistedWriter`` raw value; the
    /// blocks of all writers were taken in turn, so `blocks[a][i]` and `blocks[b][i]` pair up.
    public var blocks: [String: [Double]]?
    /// fsync and fdatasync calls per write, by writer, counted with `strace -c` (absent when
    /// strace is not installed).
    public var syncsPerWrite: [String: Double]?

    /// Records the figures of one run.
    public init(
        ours: PairedRatio, userDefaultsNanoseconds: Double, documentBytes: Int, blocks: [String: [Double]]? = nil,
        syncsPerWrite: [String: Double]? = nil
    ) {
        self.ours = ours
        self.userDefaultsNanoseconds = userDefaultsNanoseconds
        self.documentBytes = documentBytes
        self.blocks = blocks
        self.syncsPerWrite = syncsPerWrite
    }

    /// The median nanoseconds per write of `writer`, if it ran.
    public func median(_ writer: PersistedWriter) -> Double? {
        guard let times = blocks?[writer.rawValue], !times.isEmpty else { return nil }
        return PairedRatio.median(times)
    }

    /// Ours ÷ `writer`, the median of block-by-block ratios (blocks taken in turn), if it ran.
    public func ratio(to writer: PersistedWriter) -> Double? {
        guard let ours = blocks?[PersistedWriter.ours.rawValue], let other = blocks?[writer.rawValue], !other.isEmpty
        else { return nil }
        return PairedRatio.median(zip(ours, other).map { $0 / $1 })
    }
}

/// Latencies from a writer process to a watcher process, in milliseconds.
public struct LatencyResult: Codable, Sendable {
    /// The median.
    public var p50: Double
    /// The 99th percentile.
    public var p99: Double
    /// The largest.
    public var max: Double
    /// Changes measured.
    public var count: Int
    /// Changes the watcher did not report within 2 s.
    public var missed: Int

    /// Summarises `milliseconds`, one per change seen, and the number of changes not seen.
    public init(milliseconds: [Double], missed: Int) {
        let sorted = milliseconds.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let index = Int((Double(sorted.count - 1) * p).rounded(.up))
            return sorted[Swift.min(Swift.max(index, 0), sorted.count - 1)]
        }
        p50 = percentile(0.5)
        p99 = percentile(0.99)
        max = sorted.last ?? .nan
        count = sorted.count
        self.missed = missed
    }
}

/// CPU time and wake-ups of one countdown variant, in a process of its own.
public struct EnergyResult: Codable, Sendable {
    /// User + system CPU time over the countdown, in milliseconds.
    public var cpuMilliseconds: Double
    /// Voluntary context switches over the countdown: how often a thread of the process went to
    /// sleep, so how often one was woken.
    public var wakeUps: Int
    /// Seconds shown on the screens (each screen's changes, counted once per second shown).
    public var shownSeconds: Int
    /// The countdown's length in seconds.
    public var seconds: Int

    /// Records one variant's figures.
    public init(cpuMilliseconds: Double, wakeUps: Int, shownSeconds: Int, seconds: Int) {
        self.cpuMilliseconds = cpuMilliseconds
        self.wakeUps = wakeUps
        self.shownSeconds = shownSeconds
        self.seconds = seconds
    }
}

/// CPU time of idle persisted stores over a stretch of time, with and without watching.
public struct IdleResult: Codable, Sendable {
    /// How many stores.
    public var stores: Int
    /// How long they were left idle, in seconds.
    public var seconds: Int
    /// CPU milliseconds while they watched their documents.
    public var watchingCPUMilliseconds: Double
    /// CPU milliseconds of the same stores with watching off.
    public var offCPUMilliseconds: Double

    /// Records one run's figures.
    public init(stores: Int, seconds: Int, watchingCPUMilliseconds: Double, offCPUMilliseconds: Double) {
        self.stores = stores
        self.seconds = seconds
        self.watchingCPUMilliseconds = watchingCPUMilliseconds
        self.offCPUMilliseconds = offCPUMilliseconds
    }
}

/// Launches of `demo-cli` against purchase ledgers of growing history: what a launch costs as
/// the past purchases pile up (the ledger folds settled entries into a checkpoint).
public struct HistoryResult: Codable, Sendable {
    /// One entry per ledger size, smallest first.
    public var sizes: [HistorySize]
    /// How many timed launches of each command each size had.
    public var runs: Int
    /// The peak memory reported for a launch of `/bin/true` the same way, in MiB: below it, a
    /// launch's peak cannot be seen (the launcher's address space counts towards it).
    public var launcherFloorMiB: Double?

    /// Records one run's figures.
    public init(sizes: [HistorySize], runs: Int, launcherFloorMiB: Double?) {
        self.sizes = sizes
        self.runs = runs
        self.launcherFloorMiB = launcherFloorMiB
    }
}

/// The launches at one ledger size.
public struct HistorySize: Codable, Sendable {
    /// Past purchases in the generated ledger.
    public var purchases: Int
    /// Median CPU time (user + system) of `demo-cli purchase show`, in milliseconds.
    public var showCPUMilliseconds: Double
    /// Median CPU time (user + system) of `demo-cli purchase buy`, in milliseconds.
    public var buyCPUMilliseconds: Double
    /// The largest peak resident memory of any timed launch, in MiB.
    public var peakMemoryMiB: Double
    /// Wall-clock seconds of the first, untimed `purchase buy`, which compacted the ledger.
    public var compactionSeconds: Double
    /// Peak memory of that compacting launch, in MiB.
    public var compactionPeakMemoryMiB: Double?

    /// Records one size's figures.
    public init(
        purchases: Int, showCPUMilliseconds: Double, buyCPUMilliseconds: Double, peakMemoryMiB: Double,
        compactionSeconds: Double, compactionPeakMemoryMiB: Double?
    ) {
        self.purchases = purchases
        self.showCPUMilliseconds = showCPUMilliseconds
        self.buyCPUMilliseconds = buyCPUMilliseconds
        self.peakMemoryMiB = peakMemoryMiB
        self.compactionSeconds = compactionSeconds
        self.compactionPeakMemoryMiB = compactionPeakMemoryMiB
    }
}

/// Launches of a fresh process that opens persisted values and reads every one.
public struct LaunchResult: Codable, Sendable {
    /// Timed launches of each variant.
    public var runs: Int
    /// Values the peers' launches read.
    public var peerCount: Int
    /// The store counts ours was launched with.
    public var counts: [Int]
    /// Median CPU milliseconds from `exec` to the last read, by `<variant>-<count>` (`none-0`,
    /// `ours-20`, `userdefaults-20`, `grdb-20`…).
    public var cpuMilliseconds: [String: Double]
    /// Median wall milliseconds from just before the launch to the last read, by the same keys.
    public var wallMilliseconds: [String: Double]

    /// Records one run's figures.
    public init(
        runs: Int, peerCount: Int, counts: [Int], cpuMilliseconds: [String: Double], wallMilliseconds: [String: Double]
    ) {
        self.runs = runs
        self.peerCount = peerCount
        self.counts = counts
        self.cpuMilliseconds = cpuMilliseconds
        self.wallMilliseconds = wallMilliseconds
    }
}

/// A persisted value changed like a dragged slider, by variant (`ours`, `userdefaults`,
/// `grdb-full`).
public struct SliderResult: Codable, Sendable {
    /// Changes a second.
    public var hertz: Int
    /// How long the drag lasted.
    public var seconds: Int
    /// The figures of each variant.
    public var variants: [String: SliderVariant]

    /// Records one run's figures.
    public init(hertz: Int, seconds: Int, variants: [String: SliderVariant]) {
        self.hertz = hertz
        self.seconds = seconds
        self.variants = variants
    }
}

/// One variant of the slider row.
public struct SliderVariant: Codable, Sendable {
    /// The writer's CPU time (user + system) over the drag, in milliseconds.
    public var cpuMilliseconds: Double
    /// Values written.
    public var writes: Int
    /// From the writer's call that set the last value to the other process seeing it, in
    /// milliseconds; `nil` if it was not seen within 2 s.
    public var lastSeenMilliseconds: Double?
    /// Distinct values the other process saw.
    public var changesSeen: Int
    /// fsync and fdatasync calls of the writer over the drag, counted with `strace -c` in a
    /// second run (`nil` without strace).
    public var syncs: Int?

    /// Records one variant's figures.
    public init(cpuMilliseconds: Double, writes: Int, lastSeenMilliseconds: Double?, changesSeen: Int, syncs: Int?) {
        self.cpuMilliseconds = cpuMilliseconds
        self.writes = writes
        self.lastSeenMilliseconds = lastSeenMilliseconds
        self.changesSeen = changesSeen
        self.syncs = syncs
    }
}

/// Resident memory, open descriptors and threads of one process as persisted, watching value
/// stores are added.
public struct HandlesResult: Codable, Sendable {
    /// The figures before the first store (the values already in memory), then at each count.
    public var steps: [HandlesStep]

    /// Records one run's figures.
    public init(steps: [HandlesStep]) { self.steps = steps }
}

/// The process at one number of stores.
public struct HandlesStep: Codable, Sendable {
    /// Stores alive.
    public var stores: Int
    /// Resident memory in KiB.
    public var residentKiB: Double
    /// Open file descriptors.
    public var descriptors: Int
    /// Threads.
    public var threads: Int

    /// Records one step.
    public init(stores: Int, residentKiB: Double, descriptors: Int, threads: Int) {
        self.stores = stores
        self.residentKiB = residentKiB
        self.descriptors = descriptors
        self.threads = threads
    }
}
