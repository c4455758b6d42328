import Foundation
import SingletonStores
@testable import Stores
import Testing

/// A countdown's record (the `boost` document) and a boost grant (in the purchases ledger) both
/// record an end on the boot time line; both read it through one check, so they accept and
/// refuse the same values.
@Suite struct BootTimeChecksTests {
    /// A record and a grant carrying `fields` beside what each needs.
    private static func decodeBoth(_ fields: String) -> (record: Bool, grant: Bool) {
        let record = try? JSONDecoder().decode(CountdownRecord.self, from: Data("{\(fields)}".utf8))
        let grant = try? JSONDecoder().decode(BoostGrant.self, from: Data(#"{"id": "g-1", "endDate": 0, \#(fields)}"#.utf8))
        return (record != nil, grant != nil)
    }

    @Test(arguments: [
        (#""bootID": "b", "endSinceBootSeconds": 0"#, true),
        (#""bootID": "b", "endSinceBootSeconds": 1e12"#, true),
        ("\"bootID\": \"\(String(repeating: "a", count: 64))\"", true),
        (#""bootID": "b", "endSinceBootSeconds": -1"#, false),
        (#""bootID": "b", "endSinceBootSeconds": 1.5e12"#, false),
        ("\"bootID\": \"\(String(repeating: "a", count: 65))\"", false),
    ])
    func bothAcceptAndRefuseTheSameTimes(fields: String, readable: Bool) {
        let decoded = Self.decodeBoth(fields)
        #expect(decoded.record == readable && decoded.grant == readable, "\(fields)")
    }
}
