import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Testing

/// A dragged slider on a coalesced store, in a process of its own, killed with SIGKILL at random
/// moments: the document on disk is always whole, a value the slider set, and never older than
/// the last write that was in place before the kill. The values set within the window are all
/// a kill may lose.
@Suite("Coalesced writes under kills", .ownThread)
struct CoalescedWritesKillTests {
    @Test func aKillLosesAtMostTheValuesSetWithinTheWindow() async throws {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let helper = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        try await runOffThePool {
            try withTemporaryFolder { folder in
                let document = StoreDocument(key: "slider", default: PersistedCounter(count: 0, label: "v0"))
                var random = SplitMix(seed: 0xC0A1_E5CE)
                var kept = 0
                var durableWrites = 0
                var lostInTheWindow = 0
                for iteration in 0..<30 {
                    let process = Process()
                    process.executableURL = helper
                    process.arguments = ["slide", folder.path(percentEncoded: false), "20"]
                    let slider = try StartedChild.start(process)
                    // Once it sets (however slow the machine), a random moment: 0 to 200 ms in.
                    try slider.waitForOutput()
                    usleep(UInt32(random.next() % 200_000))
                    slider.send(SIGKILL)
                    let run = try slider.finish()
                    #expect(run.wasKilled, "iteration \(iteration): \(run)")
                    #expect(run.standardError.isEmpty, "iteration \(iteration): \(run.standardError)")
                    let sets = run.lines.compactMap { $0.hasPrefix("set ") ? Int($0.dropFirst(4)) : nil }
                    let durable = run.lines.compactMap { $0.hasPrefix("durable ") ? Int($0.dropFirst(8)) : nil }
                    durableWrites += durable.count

                    let loaded = try FileStorage(folder: folder).load(document)
                    let onDisk = loaded.value
                    #expect(loaded.recovery == nil, "iteration \(iteration): the document is whole")
                    #expect(onDisk.label == "v\(onDisk.count)", "iteration \(iteration): \(onDisk) is a value that was set")
                    // Never older than a write that was in place, in this run or an earlier one.
                    let lastInPlace = max(kept, durable.max() ?? 0)
                    #expect(onDisk.count >= lastInPlace, "iteration \(iteration): \(onDisk.count) < \(lastInPlace)")
                    // Never a value that was not set.
                    #expect(onDisk.count <= max(kept, sets.max() ?? 0), "iteration \(iteration)")
                    lostInTheWindow += max(0, (sets.max() ?? 0) - onDisk.count)
                    kept = onDisk.count
                }
                // The checks had something to check: writes landed before kills (about five a run on
                // an idle machine, fewer under load or a sanitizer).
                #expect(durableWrites >= 10)
                #expect(kept > 0)
                print("30 kills: \(durableWrites) writes in place, \(lostInTheWindow) values set within a window lost")
            }
        }
    }

    @Test func aProcessThatExitsWithAValuePendingWritesItOnTheWayOut() async throws {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let helper = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        try await runOffThePool {
            try withTemporaryFolder { folder in
                // 25 sets, 2 ms apart, in a window of 10 s: only the exit can write the last one.
                let process = Process()
                process.executableURL = helper
                process.arguments = ["slide", folder.path(percentEncoded: false), "10000", "25"]
                let run = try StartedChild.start(process).finish()
                #expect(run.status == 0 && run.reason == .exit, "\(run)")
                #expect(run.lines.last == "durable 25", "\(run)")
                let loaded = try FileStorage(folder: folder).load(
                    StoreDocument(key: "slider", default: PersistedCounter(count: 0, label: "v0")))
                #expect(loaded.value == PersistedCounter(count: 25, label: "v25"))
            }
        }
    }

    @Test func anExitWhileAnotherProcessHoldsTheLockSaysTheValueIsLostAndExitsWithItsStatus() async throws {
        let (found, searched) = BuiltProduct.locate("storage-stress")
        let helper = try #require(found, "\(BuiltProduct.notFoundMessage("storage-stress", searched: searched))")
        try await runOffThePool {
            try withTemporaryFolder { folder in
                let holder = try FileStorageLockTests.holdLock("slider", in: folder)
                defer {
                    holder.send(SIGKILL)
                    _ = try? holder.finish()
                }
                // 25 sets in a window of 10 s: only the exit can write the last one, and another
                // process holds the lock all along. The exit waits the lock timeout, 0.3 s.
                let process = Process()
                process.executableURL = helper
                process.arguments = ["slide", folder.path(percentEncoded: false), "10000", "25"]
                var environment = ProcessInfo.processInfo.environment
                environment[FileStorage.lockTimeoutEnvironmentVariable] = "0.3"
                process.environment = environment
                let started = ContinuousClock.now
                let run = try StartedChild.start(process).finish()
                let took = started.duration(to: .now)
                #expect(run.reason == .exit && run.status == StoreWritePolicy.valuesLostExitStatus, "\(run)")
                #expect(run.status == 75)
                #expect(run.lines.last == "set 25", "nothing was written: \(run)")
                #expect(
                    run.standardError.contains(
                        "SingletonStores: The last value set on the store \"slider\" was not saved and is lost: The slider "
                            + "store is held by another process (pid \(holder.processIdentifier)), which kept its lock file "),
                    "\(run.standardError)")
                #expect(run.standardError.contains("for more than 0.3 seconds"), "\(run.standardError)")
                #expect(!run.standardError.contains("nothing was lost"), "\(run.standardError)")
                // The exit waited its storage's lock timeout, not the helper's own 600 s.
                #expect(took < .seconds(120), "\(took)")
                let loaded = try FileStorage(folder: folder).load(
                    StoreDocument(key: "slider", default: PersistedCounter(count: 0, label: "v0")))
                #expect(loaded.value == PersistedCounter(count: 0, label: "v0"))
            }
        }
    }
}
