import Foundation

/// An entry of a stored ``PurchaseLedger`` that this version could not read, kept exactly as
/// it was stored.
///
/// ```swift
/// for entry in PurchaseManager.shared.purchaseLedger.unreadableEntries {
///     print("kept, not counted:", entry.reason)
/// }
/// ```
public struct UnreadableLedgerEntry: Sendable, Equatable {
    /// The entry as stored.
    let stored: StoredJSON

    /// Why it could not be read, in words (for example "the date is outside the years
    /// 0000–9999"). Not stored: a ledger loaded again says it was kept from an earlier load.
    public let reason: String

    /// The receipt id the entry names, if its `receiptID` is text.
    public var receiptID: String? {
        guard case .object(let fields) = stored, case .string(let id)? = fields["receiptID"] else { return nil }
        return id
    }

    /// The stored entry as JSON text, with sorted keys.
    public var storedJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(stored) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Two unreadable entries are equal when they are stored alike, whatever the reason given.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.stored == rhs.stored
    }
}

/// Any JSON value, decoded and encoded as it is: how an unreadable entry is kept.
///
/// Whole numbers within `Int64` stay exact; other numbers go through `Double`. A number is equal
/// to another of the same value whichever way it was read: a `Double` written back as a whole
/// number (`9.2e+16`) reads as an `Int64` the next time.
enum StoredJSON: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([StoredJSON])
    case object([String: StoredJSON])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode([StoredJSON].self) {
            self = .array(value)
        } else {
            self = .object(try single.decode([String: StoredJSON].self))
        }
    }

    static func == (lhs: StoredJSON, rhs: StoredJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): Double(a) == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .integer(let value): try single.encode(value)
        case .number(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let value): try single.encode(value)
        case .object(let value): try single.encode(value)
        }
    }
}
