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
