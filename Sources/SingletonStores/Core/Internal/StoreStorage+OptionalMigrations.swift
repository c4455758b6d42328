/// The calls of a store that may or may not have ``DocumentMigrations``: with none, the plain
/// requirements run, so a storage of one's own that implements only those behaves as before.
extension StoreStorage {
    /// ``load(_:forKey:default:migrations:)``, or ``load(_:forKey:default:)`` without migrations.
    func load<Value: Codable & Sendable>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrating migrations: DocumentMigrations<Value>?
    ) throws(StorageError) -> StorageLoad<Value> {
        guard let migrations else { return try load(type, forKey: key, default: defaultValue()) }
        return try load(type, forKey: key, default: defaultValue(), migrations: migrations)
    }

    /// ``update(_:forKey:default:migrations:_:)``, or ``update(_:forKey:default:_:)`` without
    /// migrations.
    func update<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrating migrations: DocumentMigrations<Value>?,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome> {
        guard let migrations else { return try update(type, forKey: key, default: defaultValue(), body) }
        return try update(type, forKey: key, default: defaultValue(), migrations: migrations, body)
    }

    /// ``updateIfAvailable(_:forKey:default:migrations:_:)``, or
    /// ``updateIfAvailable(_:forKey:default:_:)`` without migrations.
    func updateIfAvailable<Value: Codable & Sendable, Outcome>(
        _ type: Value.Type,
        forKey key: String,
        default defaultValue: @autoclosure () -> Value,
        migrating migrations: DocumentMigrations<Value>?,
        _ body: (inout Value) throws(StorageError) -> Outcome
    ) throws(StorageError) -> StorageUpdate<Value, Outcome>? {
        guard let migrations else { return try updateIfAvailable(type, forKey: key, default: defaultValue(), body) }
        return try updateIfAvailable(type, forKey: key, default: defaultValue(), migrations: migrations, body)
    }
}
