import Foundation
import SingletonStoresLocking

/// A value that hides its secrets before it goes into a ``StoreSnapshot``.
///
/// ```swift
/// struct Account: Codable, Sendable, Equatable, SnapshotRedactable {
///     var userID = ""
///     var token = ""
///     func redactedForSnapshot() -> Account {
///         var copy = self
///         copy.token = StoreSnapshot.redacted
///         return copy
///     }
/// }
/// ```
package protocol SnapshotRedactable {
    /// This value with its secrets (tokens, passwords, receipts) replaced, for example by
    /// ``StoreSnapshot/redacted``.
    func redactedForSnapshot() -> Self
}

/// The state of several stores as one JSON document, for a bug report or a support request.
///
/// ```swift
/// var snapshot = StoreSnapshot()
/// try snapshot.add("account", Account(userID: "u-1", token: "t-1"))  // the token is redacted
/// try snapshot.add("cart", ["socks", "hat"])
/// let json = try snapshot.json()                                      // pretty-printed, sorted keys
/// ```
///
/// The document reads `{"formatVersion": 1, "stores": {"account": …, "cart": …}}`. Each value is
/// encoded as its store's document holds it (dates as exact ISO 8601 text in UTC), after
/// ``SnapshotRedactable/redactedForSnapshot()`` when its type hides secrets. Control and
/// formatting characters in its text — C1 controls, bidirectional overrides and isolates
/// included — are written as `\u` escapes, so the document prints safely to a terminal and
/// stays valid JSON.
package struct StoreSnapshot: Sendable {
    /// What a redacted secret reads as: `"<redacted>"`.
    package static let redacted = "<redacted>"

    /// The version of the snapshot's layout.
    package static let formatVersion = 1

    /// Each store's value, encoded, by name.
    private var stores: [String: Data] = [:]

    /// An empty snapshot.
    package init() {}

    /// The names of the stores added so far, sorted.
    package var storeNames: [String] { stores.keys.sorted() }

    /// Adds (or replaces) the value of the store `name`, redacted first when its type hides
    /// secrets.
    ///
    /// - Throws: ``StorageError/encodingFailed(key:reason:)`` when the value can't be encoded.
    package mutating func add<Value: Encodable>(_ name: String, _ value: Value) throws(StorageError) {
        var shown = value
        if let secretive = value as? any SnapshotRedactable, let redacted = secretive.redactedForSnapshot() as? Value {
            shown = redacted
        }
        do {
            stores[name] = try DocumentFormat.encoder().encode(Entry(value: shown))
        } catch {
            throw .encodingFailed(key: name, reason: String(describing: error))
        }
    }

    /// The snapshot as a pretty-printed JSON document with sorted keys, every control or
    /// formatting character in its text escaped as `\u` (see the type's documentation).
    ///
    /// - Throws: ``StorageError/encodingFailed(key:reason:)`` if a value's JSON could not be
    ///   assembled (it was encoded by ``add(_:_:)`` already, so this does not happen in practice).
    package func json() throws(StorageError) -> Data {
        var values: [String: Any] = [:]
        for (name, data) in stores {
            do {
                let entry = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                values[name] = (entry as? [String: Any])?["value"] ?? NSNull()
            } catch {
                throw .encodingFailed(key: name, reason: String(describing: error))
            }
        }
        do {
            let data = try JSONSerialization.data(
                withJSONObject: ["formatVersion": Self.formatVersion, "stores": values],
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            return Data(String(decoding: data, as: UTF8.self).escapingControlCharactersInJSON.utf8)
        } catch {
            throw .encodingFailed(key: "snapshot", reason: String(describing: error))
        }
    }

    /// One value wrapped in an object, so that values that are not objects (a number, a text)
    /// encode too.
    private struct Entry<Value: Encodable>: Encodable {
        let value: Value
    }
}
