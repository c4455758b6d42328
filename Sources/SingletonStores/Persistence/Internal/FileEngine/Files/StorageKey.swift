import Foundation

/// Validation of store names, shared by every ``StoreStorage``.
///
/// A key becomes part of file names (`<key>.json`, `<key>.lock`), so it is restricted to a
/// portable alphabet. Files the storage makes beside a document (`<key>~<tag>-….json`,
/// `<key>~….tmp`) contain `~`, which no key may contain, so they never collide with another
/// store's document.
enum StorageKey {
    /// The longest key accepted, leaving room for suffixes within a 255-byte file name.
    static let maximumLength = 120

    /// Returns `key` unchanged if it is a valid store name; throws `.invalidKey` otherwise.
    static func validated(_ key: String) throws(StorageError) -> String {
        if let reason = problem(with: key) {
            throw .invalidKey(key, reason: reason)
        }
        return key
    }

    /// Why `key` is not a valid store name, or `nil` when it is.
    static func problem(with key: String) -> String? {
        // One pass over the bytes: a store's every read and write checks its key, so this stays
        // off Foundation's string search. A byte outside ASCII is outside the alphabet.
        let bytes = key.utf8
        if bytes.isEmpty { return "a store name can't be empty" }
        if bytes.count > maximumLength { return "a store name is at most \(maximumLength) characters" }
        var separator = false
        var twoDots = false
        var outside = false
        var previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                break
            case UInt8(ascii: "."):
                if previous == UInt8(ascii: ".") { twoDots = true }
            case UInt8(ascii: "/"), UInt8(ascii: "\\"):
                separator = true
            default:
                outside = true
            }
            previous = byte
        }
        if separator { return "a store name can't contain a path separator" }
        if twoDots { return "a store name can't contain “..”" }
        if bytes.first == UInt8(ascii: ".") { return "a store name can't start with a dot" }
        if outside { return "a store name takes only letters A–Z, digits, “.”, “_” and “-”" }
        return nil
    }

    /// `name` made into a valid key: disallowed characters become `_`, leading dots are
    /// dropped, and an empty result becomes `fallback`.
    static func sanitized(_ name: String, fallback: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": scalars.append(scalar)
            default: scalars.append("_")
            }
        }
        var result = String(scalars)
        while result.contains("..") { result = result.replacingOccurrences(of: "..", with: "._") }
        while result.hasPrefix(".") { result.removeFirst() }
        if result.utf8.count > maximumLength { result = String(result.prefix(maximumLength)) }
        return result.isEmpty ? fallback : result
    }
}
