import Foundation
import SingletonStoresTestSupport
import SingletonStores

/// `storage-stress slide <folder> <window-ms> [<sets>]`: a dragged slider on a coalesced store,
/// until killed, or for `<sets>` sets, after which it exits at once (never flushing: the exit
/// writes the pending value, and the status is `StoreWritePolicy.valuesLostExitStatus` when it
/// could not). Sets the
/// `slider` document (a ``PersistedCounter`` whose label names its count) to the next count
/// every 2 ms, printing `set <n>` before each set, and `durable <n>` with the count on disk each
/// time a write of the document has been renamed into place.
enum Slide {
    static func run(folder: URL, windowMilliseconds: Int, sets: Int?) -> Int32 {
        guard (1...10_000).contains(windowMilliseconds) else { return 2 }
        let document = StoreDocument(key: "slider", default: PersistedCounter(count: 0, label: "v0"))
        let reader = FileStorage(folder: folder)
        FaultInjection.install { point in
            guard point == .didWrite("slider") else { return }
            // The write is in place: what a kill from now on must never lose.
            guard let onDisk = try? reader.load(document) else { return }
            say("durable \(onDisk.value.count)")
        }
        let store = ValueStore(
            document, storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off,
            writePolicy: .coalescing(within: .milliseconds(windowMilliseconds)))
        var count = store.value.count
        var left = sets ?? Int.max
        while left > 0 {
            left -= 1
            count += 1
            say("set \(count)")
            do {
                try store.set(PersistedCounter(count: count, label: "v\(count)"))
            } catch {
                FileHandle.standardError.write(Data("storage-stress: \(error)\n".utf8))
                return 1
            }
            usleep(2_000)
        }
        return 0
    }

    /// One line to standard output, unbuffered: a kill right after it loses nothing printed.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
