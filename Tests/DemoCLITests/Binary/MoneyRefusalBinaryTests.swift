#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SingletonStoresTestSupport
import Testing

/// From outside: a buy took the payment when the ledger could never be credited (another
/// program's `purchases.json`, a lock file that is not a file, another user's ledger), `reset`
/// then deleted the paid receipts without a word, and `boost use` spent an item on a boost
/// that never ran. Each is now refused before anything is paid or spent, naming the file.
@Suite("Money refused before it is taken", .hangLimit, .ownThread)
struct MoneyRefusalBinaryTests {
    /// What is planted in the data folder (one the library did not make) after a first buy.
    enum Planted: String, CaseIterable, Sendable {
        case anotherProgramsLedger, lockFolder, lockFIFO, lockSocket, lockLink, anotherUsersLedger, anotherProgramsReceipts

        /// The file the refusal must name.
        var file: String {
            switch self {
            case .anotherProgramsLedger, .anotherUsersLedger: "purchases.json"
            case .lockFolder, .lockFIFO, .lockSocket, .lockLink: "purchases.lock"
            case .anotherProgramsReceipts: "receipts.json"
            }
        }

        /// Puts it in `folder`.
        func plant(in folder: URL) throws {
            let path = folder.appending(path: file).path(percentEncoded: false)
            if file.hasSuffix(".lock") || self == .anotherProgramsReceipts { _ = unlink(path) }
            switch self {
            case .anotherProgramsLedger:
                try Data(#"{"theme": "dark"}"#.utf8).write(to: URL(filePath: path))
            case .anotherProgramsReceipts:
                try Data(#"{"songs": []}"#.utf8).write(to: URL(filePath: path))
            case .anotherUsersLedger:
                // A copy of the ledger, as `nobody` would plant it in a shared folder.
                let copy = try Data(contentsOf: URL(filePath: path))
                _ = unlink(path)
                try copy.write(to: URL(filePath: path))
                try #require(chown(path, 65534, 65534) == 0)
            case .lockFolder:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .lockFIFO:
                try #require(mkfifo(path, 0o600) == 0)
            case .lockSocket:
                try Self.bindSocket(at: path)
            case .lockLink:
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/tmp/elsewhere.lock")
            }
        }

        /// Leaves a listening-less Unix socket file at `path`.
        private static func bindSocket(at path: String) throws {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in bytes.enumerated() { buffer[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0, "bind: \(errno)")
        }
    }

    @Test(arguments: Planted.allCases)
    func aBuyThatCanNeverBeCreditedIsRefusedBeforeThePayment(_ planted: Planted) throws {
        if planted == .anotherUsersLedger, geteuid() != 0 { return }  // giving a file away needs root
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "2"]).status == 0)
            try planted.plant(in: binary.dataFolder)

            let buy = try binary.run(["purchase", "buy", "--items", "5"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": "1"])
            #expect(buy.status == 1 && buy.reason == .exit, "\(buy)")
            #expect(buy.standardError.contains("Nothing was bought and nothing was charged"), "\(buy.standardError)")
            let named = binary.dataFolder.appending(path: planted.file).path(percentEncoded: false)
            #expect(buy.standardError.contains(named), "\(buy.standardError)")
            #expect(!buy.standardError.contains("do not buy it again"), "\(buy.standardError)")
            #expect(buy.standardOutput.isEmpty, "\(buy)")

            // Nothing was paid: once the planted file is moved away, the 5 items never show up.
            let path = binary.dataFolder.appending(path: planted.file).path(percentEncoded: false)
            if planted == .lockFolder { _ = rmdir(path) } else if planted != .anotherUsersLedger { _ = unlink(path) }
            if planted == .anotherUsersLedger { #expect(chown(path, 0, 0) == 0) }
            let shown = try binary.run(["purchase", "show"]).lines.first
            let expected = planted == .anotherProgramsLedger ? "boost items: 0" : "boost items: 2"
            #expect(shown == expected, "\(planted)")
            #expect(try binary.run(["purchase", "show"]).lines.first == expected)
        }
    }

    /// While another process holds the ledger's lock, the ledger is read without it: another
    /// user's ledger, or another program's, refuses the buy before the payment all the same
    /// (a held lock alone lets it go ahead, recorded: see `resetKeepsAPaidUncreditedPurchase…`).
    @Test(arguments: [Planted.anotherUsersLedger, .anotherProgramsLedger])
    func aBuyThatCanNeverBeCreditedIsRefusedWhileTheLedgerIsHeld(_ planted: Planted) throws {
        if planted == .anotherUsersLedger, geteuid() != 0 { return }  // giving a file away needs root
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "2"]).status == 0)
            try planted.plant(in: binary.dataFolder)
            let held = try PurchaseCreditBinaryTests.holdLock(of: "purchases", in: binary.dataFolder)
            let buy = try binary.run(["purchase", "buy", "--items", "5"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": "0.2"])
            close(held)
            #expect(buy.status == 1 && buy.reason == .exit, "\(buy)")
            #expect(buy.standardError.contains("Nothing was bought and nothing was charged"), "\(buy.standardError)")
            let receipts = try String(contentsOf: binary.dataFolder.appending(path: "receipts.json"), encoding: .utf8)
            #expect(!receipts.contains(#""count" : 5"#), "a payment was recorded: \(receipts)")
        }
    }

    /// A purchase taken while another process held the ledger's lock is recorded and waits;
    /// `reset` keeps it, naming it, unless asked to discard it; the next run credits it.
    @Test func resetKeepsAPaidUncreditedPurchaseUnlessToldToDiscardIt() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "2"]).status == 0)
            let held = try PurchaseCreditBinaryTests.holdLock(of: "purchases", in: binary.dataFolder)
            let waiting = try binary.run(
                ["purchase", "buy", "--items", "5"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": "0.2"])
            close(held)
            try #require(waiting.status == 3, "\(waiting)")

            let reset = try binary.run(["reset", "--yes"])
            #expect(reset.status == 0, "\(reset)")
            #expect(
                reset.lines.contains {
                    $0.hasPrefix("Kept receipts.json: it holds 1 purchase paid for and not yet credited (5 boost items)")
                        && $0.contains("--discard-uncredited")
                }, "\(reset.lines)")
            #expect(FileManager.default.fileExists(atPath: binary.dataFolder.appending(path: "receipts.json").path))
            #expect(!FileManager.default.fileExists(atPath: binary.dataFolder.appending(path: "purchases.json").path))
            // The purchase paid for is credited, once, to the new ledger.
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 5")
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 5")

            // Credited now: a reset removes everything.
            let again = try binary.run(["reset", "--yes"])
            #expect(again.status == 0 && !again.standardOutput.contains("Kept"), "\(again)")
            #expect(!FileManager.default.fileExists(atPath: binary.dataFolder.appending(path: "receipts.json").path))
        }
    }

    @Test func resetDiscardsAPaidUncreditedPurchaseWhenToldTo() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy"]).status == 0)
            let held = try PurchaseCreditBinaryTests.holdLock(of: "purchases", in: binary.dataFolder)
            let waiting = try binary.run(["purchase", "buy"], environment: ["SINGLETON_STORES_LOCK_TIMEOUT": "0.2"])
            close(held)
            try #require(waiting.status == 3, "\(waiting)")
            let reset = try binary.run(["reset", "--yes", "--discard-uncredited"])
            #expect(reset.status == 0 && reset.standardOutput.contains("receipts.json"), "\(reset)")
            #expect(!FileManager.default.fileExists(atPath: binary.dataFolder.appending(path: "receipts.json").path))
            #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 0")
        }
    }

    /// Writes a `receipts.json` of `count` purchases of one item each, none credited: what
    /// `count` buys leave while another process holds the ledger's lock.
    static func leavePendingReceipts(_ count: Int, in folder: URL) throws {
        let receipts = (0..<count).map { index in
            #"{"credited": false, "date": "2026-01-01T00:00:00Z", "id": "pending-\#(index)", "#
                + #""product": {"count": 1, "kind": "boostItems"}}"#
        }
        let text = #"{"formatVersion": 2, "valueVersion": 2, "value": [\#(receipts.joined(separator: ","))]}"#
        try Data(text.utf8).write(to: folder.appending(path: "receipts.json"))
    }

    /// From outside: 400 purchases waiting (more than the 320 ids a ledger used to remember),
    /// then a launch killed after the ledger credited them and before the receipts were marked
    /// credited: the next launch credited the oldest 80 again (480 items for 400 bought).
    @Test func manyPendingPurchasesAreCreditedOnceWhenTheLaunchIsKilledBeforeFinishing() throws {
        try withDemoBinary { binary in
            try Self.leavePendingReceipts(400, in: binary.dataFolder)
            let process = Process()
            process.executableURL = try HeldLockBinaryTests.stressHelper()
            process.arguments = ["report", binary.dataFolder.path(percentEncoded: false), "--crash-at", "purchases:after-write"]
            let killed = try StartedChild.start(process).finish()
            try #require(killed.wasKilled, "the launch was not killed after the ledger's write: \(killed)")
            for _ in 0..<3 {
                #expect(try binary.run(["purchase", "show"]).lines.first == "boost items: 400")
            }
            let buy = try binary.run(["purchase", "buy"])
            #expect(buy.lines == ["Bought 1 boost item. You own 401 boost items; no premium."], "\(buy)")
        }
    }

    /// An item spent on a boost shows that boost even when `boost.json` can no longer be
    /// read (another user's file put in its place): the purchases ledger records the boost it
    /// paid for. It used to show "No boost is running" with the item gone.
    @Test(.enabled(if: geteuid() == 0, "giving a file away needs root"))
    func aBoostPaidForStillShowsWhenItsRecordCantBeRead() throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "2"]).status == 0)
            #expect(try binary.run(["boost", "use", "--seconds", "600"]).status == 0)
            let path = binary.dataFolder.appending(path: "boost.json").path(percentEncoded: false)
            try #require(chown(path, 65534, 65534) == 0)
            let status = try binary.run(["boost", "status"])
            #expect(status.lines.first?.hasPrefix("Boost: ") == true, "\(status)")
            #expect(status.lines.first?.hasSuffix("1 boost item owned.") == true, "\(status)")
            #expect(status.standardError.contains(path), "the unreadable file is named: \(status.standardError)")
        }
    }

    /// Items spent equal boosts shown: a `boost.json` that can't be written refuses the use
    /// before the item is spent, naming the file.
    @Test(arguments: ["fifo", "another program's file"])
    func boostUseSpendsNothingWhenTheBoostRecordCantBeWritten(_ planted: String) throws {
        try withDemoBinary { binary in
            #expect(try binary.run(["purchase", "buy", "--items", "3"]).status == 0)
            let path = binary.dataFolder.appending(path: "boost.json").path(percentEncoded: false)
            if planted == "fifo" {
                try #require(mkfifo(path, 0o644) == 0)
            } else {
                try Data(#"{"equalizer": "rock"}"#.utf8).write(to: URL(filePath: path))
            }
            let use = try binary.run(["boost", "use", "--seconds", "600"])
            #expect(use.status == 1 && use.reason == .exit, "\(use)")
            #expect(use.standardError.contains("no item was spent"), "\(use.standardError)")
            #expect(use.standardError.contains(path), "\(use.standardError)")
            #expect(use.standardOutput.isEmpty, "\(use)")
            let status = try binary.run(["boost", "status"])
            #expect(status.lines == ["No boost is running. 3 boost items owned."], "\(status)")

            _ = unlink(path)
            let used = try binary.run(["boost", "use", "--seconds", "600"])
            #expect(used.status == 0 && used.lines.first?.hasSuffix("2 boost items left.") == true, "\(used)")
            #expect(try binary.run(["boost", "status"]).lines.first?.hasPrefix("Boost: ") == true)
        }
    }
}
