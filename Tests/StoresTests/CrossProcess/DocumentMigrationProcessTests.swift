import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Testing

/// A process killed at any point of a migration leaves the document as it was or migrated,
/// never half, and the next launch finishes the migration.
@Suite("Migrations killed at every point", .serialized, .ownThread)
struct DocumentMigrationProcessTests {
    private static let original = Data(#"{"formatVersion": 2, "value": {"tally": 3}}"#.utf8)

    private static func backups(in folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            .filter { $0.hasPrefix("counter~before-v2-") }
            .map { folder.appending(path: $0) }
    }

    @Test func aLaunchKilledAtAnyPointOfAMigrationIsMigratedByTheNextOne() throws {
        let points = try withTemporaryFolder { folder in
            try Self.original.write(to: folder.appending(path: "counter.json"))
            return try StressHelper(folder: folder).points("migrate-counter")
        }
        #expect(points == ["counter:before-write", "counter:temporary-written", "counter:backed-up", "counter:after-write"])
        for point in points {
            try withTemporaryFolder { folder in
                let document = folder.appending(path: "counter.json")
                try Self.original.write(to: document)
                let crashed = try StressHelper(folder: folder).run("migrate-counter", "--crash-at", point)
                #expect(crashed.wasKilled, "\(point): \(crashed)")
                let migrated = point == "counter:after-write"
                if !migrated { #expect(try Data(contentsOf: document) == Self.original, "\(point): untouched") }
                let copied = ["counter:backed-up", "counter:after-write"].contains(point)
                #expect(try Self.backups(in: folder).count == (copied ? 1 : 0), "\(point)")
                // The next launch finds the document done or not done, and finishes the job.
                let next = try StressHelper(folder: folder).run("migrate-counter")
                #expect(next.status == 0 && next.standardOutput == "3\n", "\(point): \(next)")
                let load = try FileStorage(folder: folder).load(
                    StoreDocument<PersistedCounter>(
                        key: "counter", default: PersistedCounter(), migrations: PersistedCounter.migrations))
                #expect(load.value == PersistedCounter(count: 3, label: "migrated"), "\(point)")
                let backups = try Self.backups(in: folder)
                #expect(backups.count == 1, "\(point): one copy, reused")
                #expect(try backups.first.map { try Data(contentsOf: $0) } == Self.original, "\(point)")
            }
        }
    }
}
