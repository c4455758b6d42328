/// The names of the micro-benchmarks and how many operations one measured iteration performs.
///
/// The suite and the table share it: the harness records the time and allocations of one
/// iteration (a loop of `operations` operations); the table divides by `operations`.
public enum Catalog {
    /// Operations per measured iteration, by benchmark name.
    public static let operations: [String: Int] = {
        var table: [String: Int] = [:]
        for variant in ["ours", "limit", "dependency", "swinject"] {
            table["read/\(variant)"] = 100_000
            table["readInOverride/\(variant)"] = 100_000
        }
        for variant in ["ours", "limit", "dependency"] {
            table["scope/\(variant)"] = 10_000
        }
        for observers in notifyObserverCounts {
            for variant in ["ours", "raw", "opencombine"] {
                table["notify\(observers)/\(variant)"] = notifyOperations(observers: observers)
            }
        }
        for variant in ["ours", "raw", "opencombine"] {
            table["churn/\(variant)"] = 1
        }
        table["observe1/ours"] = 10_000
        table["observe1/limit"] = 10_000
        table["manualClockHour/ours"] = 1
        table["automaton/table"] = 100_000
        table["automaton/effectful"] = 10_000
        return table
    }()

    /// The observer counts of the mutate-and-notify benchmarks.
    public static let notifyObserverCounts = [0, 1, 100, 10_000]

    /// Observers added and removed by one churn operation.
    public static let churnObservers = 10_000

    /// Mutations per measured iteration: enough for a millisecond or more of work.
    public static func notifyOperations(observers: Int) -> Int {
        switch observers {
        case 0, 1: 10_000
        case 100: 1_000
        default: 10
        }
    }
}

/// One target pair timed interleaved by `bench-probe pairs`: ours and its limit, block by block.
public struct PairedRatio: Codable, Sendable {
    /// Median wall-clock nanoseconds per operation of ours over the blocks.
    public var oursNanoseconds: Double
    /// Median wall-clock nanoseconds per operation of the limit over the blocks.
    public var limitNanoseconds: Double
    /// The median of the block-by-block ratios ours ÷ limit, each block of ours with the block of
    /// the limit taken next to it.
    public var ratio: Double

    /// Summarises the times of blocks taken in turn (`oursTimes[i]` next to `limitTimes[i]`).
    public init(oursTimes: [Double], limitTimes: [Double]) {
        oursNanoseconds = Self.median(oursTimes)
        limitNanoseconds = Self.median(limitTimes)
        ratio = Self.median(zip(oursTimes, limitTimes).map { $0 / $1 })
    }

    /// The median of `values` (the mean of the middle two for an even count); `nan` if empty.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}

/// The interleaved ratios of one run, by table row (`read`, `readInOverride`, `scope`,
/// `notify1`, `notify100`, `notify10000`, `observe1`).
public typealias PairedRatios = [String: PairedRatio]
