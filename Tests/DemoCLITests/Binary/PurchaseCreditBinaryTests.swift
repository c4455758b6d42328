import Foundation
import SingletonStoresTestSupport
import Testing

/// A purchase is paid for when the backend records its receipt; crediting it is a second write,
/// to the ledger, which can fail (another process holds its lock, the disk is full). Such a
/// purchase was reported as "Nothing was read or changed … Try again" and credited at the next
/// launch anyway, and the backend dropped receipts beyond its newest 64 before they were
/// credited: 100 items, then 7 and 70 × 1 bought while the ledger was held, came to 164.
@Suite("Purchases whose credit has to wait", .hangLimit, .ownThread)
struct PurchaseCreditBinaryTests {
    /// Takes `flock(LOCK_EX)` on the lock file of `key` in `folder`, as a stopped process would
    /// hold it; closing the descriptor releases it.
    static func holdLock(of key: String, in folder: URL) throws -> Int32 {
        let path = folder.appending(path: "\(key).lock").path(percentEncoded: false)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0, "could not open \(path)")
        try #require(flock(descriptor, LOCK_EX) == 0, "could not lock \(path)")
        return descriptor
    }

    @Test func purchasesTakenWhileTheLedgerIsHeldSaySoAndAreEachCreditedOnce() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "100"]).status == 0)
            let held = try Self.holdLock(of: "purchases", in: binary.dataFolder)
            var released = false
            defer { if !released { close(held) } }

            let seven = try HeldLockBinaryTests.runBounded(
                binary, ["purchase", "buy", "--items", "7"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": "1"])
            #expect(seven.status == 3 && seven.reason == .exit, "\(seven)")
            #expect(seven.standardError.contains("Bought 7 boost items: the purchase is recorded"), "\(seven)")
            #expect(seven.standardError.contains("do not buy it again"), "\(seven)")
            #expect(!seven.standardError.contains("Nothing was read or changed"), "\(seven)")
            #expect(!seven.standardError.localizedCaseInsensitiveContains("try again"), "\(seven)")
            #expect(
                seven.lines == [
                    "Bought 7 boost items: recorded; it will be credited when the purchases store is free. "
                        + "Until then: You own 100 boost items; no premium."
                ])
            // More than the 64 receipts the backend keeps once credited: none is dropped.
            for _ in 0..<70 {
                let one = try HeldLockBinaryTests.runBounded(
                    binary, ["purchase", "buy"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": "0"])
                #expect(one.status == 3, "\(one)")
                #expect(one.lines.first?.hasPrefix("Bought 1 boost item: recorded;") == true, "\(one)")
            }
            #expect(try HeldLockBinaryTests.runBounded(binary, ["purchase", "show"]).lines.first == "boost items: 100")

            close(held)
            released = true
            // Every purchase once: 100 + 7 + 70, at the first launch that finds the ledger free,
            // and never again.
            #expect(try HeldLockBinaryTests.runBounded(binary, ["purchase", "show"]).lines.first == "boost items: 177")
            #expect(try HeldLockBinaryTests.runBounded(binary, ["purchase", "show"]).lines.first == "boost items: 177")
            let buy = try HeldLockBinaryTests.runBounded(binary, ["purchase", "buy"])
            #expect(buy.status == 0 && buy.lines == ["Bought 1 boost item. You own 178 boost items; no premium."], "\(buy)")
        }
    }

    /// A ledger written by a newer version stays in place, unchanged: this version neither
    /// starts a new one nor credits anything to it (3 + 4 bought, 1 used, then 1 bought once
    /// showed "You own 1", and back on the newer version the 6 were gone).
    @Test func aLedgerOfANewerVersionStaysInPlaceAndNothingIsLost() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "3"]).status == 0)
            #expect(try binary.run(["purchase", "buy", "--items", "4"]).status == 0)
            #expect(try binary.run(["boost", "use", "--seconds", "600"]).status == 0)
            let ledger = binary.dataFolder.appending(path: "purchases.json")
            let text = try DocumentFileText.text(at: ledger)
            let newer = text.replacingOccurrences(of: #""valueVersion" : 2"#, with: #""valueVersion" : 3"#)
            try #require(newer != text, "the ledger records no value version: \(text.prefix(200))")
            try Data(newer.utf8).write(to: ledger)

            let buy = try binary.run(["purchase", "buy"])
            #expect(buy.status != 0, "nothing was credited: \(buy)")
            #expect(!buy.standardOutput.contains("You own 1 boost item"), "\(buy)")
            #expect(buy.standardError.contains("was written by a newer version"), "\(buy)")
            #expect(try String(contentsOf: ledger, encoding: .utf8) == newer, "the newer ledger is left as it was")
            #expect(try binary.run(["purchase", "show"]).lines.first != "boost items: 1")
            #expect(try String(contentsOf: ledger, encoding: .utf8) == newer)

            // Back on a version that reads it (here: the value version as this one wrote it), the
            // 6 items are there, and the buy counts once if it was recorded.
            try Data(text.utf8).write(to: ledger)
            let expected = buy.status == 3 ? "boost items: 7" : "boost items: 6"
            #expect(try binary.run(["purchase", "show"]).lines.first == expected)
        }
    }
}
