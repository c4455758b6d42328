extension Decoder {
    /// The format version of the stored document this decoder reads, or `nil` when the decoder
    /// does not read a document of a ``StoreStorage`` (a `JSONDecoder` of your own, say).
    ///
    /// A type whose stored shape changed between versions of ``FileStorage/formatVersion`` reads
    /// it in `init(from:)`, and decodes what an older version wrote, so that documents already
    /// on users' devices keep loading. The next write stores the current shape.
    ///
    /// ```swift
    /// struct Alarm: Codable {
    ///     var repeats: Repeat   // an enum with a payload, written by hand since format 2
    ///
    ///     init(from decoder: any Decoder) throws {
    ///         let container = try decoder.container(keyedBy: CodingKeys.self)
    ///         if decoder.documentFormatVersion == 1 {
    ///             repeats = try container.decode(RepeatVersion1.self, forKey: .repeats).current
    ///         } else {
    ///             repeats = try container.decode(Repeat.self, forKey: .repeats)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// For changes of your own value's shape from one version of your app to the next, give its
    /// store ``DocumentMigrations`` instead: one typed step per version, and a backup.
    ///
    /// Use it to read the shape, not to keep it in the value: bytes a process saved itself are
    /// not decoded again in that process (see <doc:StoringDocumentsInFiles>), so a value that
    /// records the version it was read from keeps the one it had in memory there.
    ///
    /// Dates need no such care: the storage reads a `Date` in the form its document's version
    /// wrote it (seconds since 2001 in version 1, ISO 8601 text since version 2).
    public var documentFormatVersion: Int? {
        guard let key = CodingUserInfoKey.documentFormatVersion else { return nil }
        return userInfo[key] as? Int
    }
}
