/// The rule for keys, for storages of your own.
extension StoreStorage {
    /// `key` itself, when it is a valid store key: 1–120 letters, digits, `.`, `_` or `-`, not
    /// starting with a dot and without `..`.
    ///
    /// Call it first in each requirement of a storage of your own (`let key = try
    /// Self.validKey(key)`), so that a key that could name something else — a path, a file
    /// beside the document — is refused as ``FileStorage`` refuses it. Names made from a valid
    /// key and `~` (`"notes~corrupt"`) never collide with another valid key.
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)``, saying what is wrong with the key.
    public static func validKey(_ key: String) throws(StorageError) -> String {
        try StorageKey.validated(key)
    }
}

/// The rule for keys, for storages reached with `await`.
extension AsyncStoreStorage {
    /// `key` itself, when it is a valid store key; see ``StoreStorage/validKey(_:)``. Call it
    /// first in each requirement (`let key = try Self.validKey(key)`).
    ///
    /// - Throws: ``StorageError/invalidKey(_:reason:)``, saying what is wrong with the key.
    public static func validKey(_ key: String) throws(StorageError) -> String {
        try StorageKey.validated(key)
    }
}
