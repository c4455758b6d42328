import Foundation
import Stores

/// `demo-cli export`: the state of every store as one JSON document on standard output, for a
/// bug report. The profile's account id and the purchase receipts are redacted, and so is every
/// free text — the nickname, a rank the app does not know, any text field but those of known
/// values, dates and identifiers (``ExportRedaction``) — unless the user asks to include it
/// (`--include-personal`); the boost is shown as what a screen shows (time left, paused, the
/// recorded end). Text is printed with control and formatting characters escaped as JSON `\u`
/// escapes.
enum ExportCommand {
    /// What the boost's part of the snapshot says.
    struct BoostState: Encodable {
        let remainingSeconds: Int
        let isPaused: Bool
        let endDate: Date?
    }

    /// A profile redacted already, added to the snapshot as it is (its type would redact the
    /// nickname again).
    struct RedactedProfile: Encodable {
        let profile: UserProfile

        func encode(to encoder: any Encoder) throws {
            try profile.encode(to: encoder)
        }
    }

    static func run(includingPersonal: Bool, context: CommandContext) -> ExitStatus {
        let stores = context.stores()
        var snapshot = StoreSnapshot()
        do throws(StorageError) {
            let boost = stores.boost
            try snapshot.add(
                "boost", BoostState(remainingSeconds: boost.remainingSeconds, isPaused: boost.isPaused, endDate: boost.endDate))
            let profile = stores.profile.profile.redactedForSnapshot(keepingPersonalText: includingPersonal)
            try snapshot.add("profile", RedactedProfile(profile: profile))
            try snapshot.add("purchases", stores.purchases.purchaseLedger)
            try snapshot.add("apiTarget", stores.apiTarget.target)
            let json = try snapshot.json()
            let shown = includingPersonal ? json : try redactingFreeText(in: json)
            context.console.print(String(decoding: shown, as: UTF8.self))
            return .success
        } catch {
            return context.fail(error)
        }
    }

    /// ``ExportRedaction/redactingFreeText(in:)``, failing as the snapshot's encoding does.
    private static func redactingFreeText(in json: Data) throws(StorageError) -> Data {
        do {
            return try ExportRedaction.redactingFreeText(in: json)
        } catch {
            throw .encodingFailed(key: "snapshot", reason: String(describing: error))
        }
    }
}
