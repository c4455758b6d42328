import Foundation
import SingletonStoresTestSupport
import Testing
@testable import demo_cli

/// `--log-changes`: each change the stores commit, one escaped line on standard error.
@Suite("demo-cli --log-changes", .hangLimit, .ownThread)
struct ChangeLogBinaryTests {
    @Test func eachCommittedChangeIsOneLineOnStandardError() throws {
        try withDemoBinary { binary in
            let set = try binary.run(["--log-changes", "profile", "set", "--nickname", "Aki\u{1B}[2J"])
            #expect(set.status == 0, "\(set)")
            let changes = set.errorLines.filter { $0.hasPrefix("demo-cli: change: ") }
            #expect(changes.count == 1, "\(set.errorLines)")
            #expect(changes.first?.contains("SingletonStores.UserProfileStore.changed: ") == true)
            #expect(changes.first?.contains("u{1B}[2J") == true, "stored text is escaped: \(changes)")
            #expect(!set.standardError.contains("\u{1B}"))

            let buy = try binary.run(["purchase", "buy", "--items", "2", "--log-changes"])
            let ledger = buy.errorLines.filter { $0.hasPrefix("demo-cli: change: SingletonStores.PurchaseManager.ledger: ") }
            #expect(ledger.count == 1, "\(buy.errorLines)")
            #expect(ledger.allSatisfy { $0.count < 600 }, "each side is cut to 200 characters")

            let quiet = try binary.run(["profile", "set", "--nickname", "Kei"])
            #expect(!quiet.standardError.contains("change:"), "nothing is logged without the option")
        }
    }
}
