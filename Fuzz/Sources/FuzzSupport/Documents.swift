import Foundation
@testable import SingletonStores

/// A persisted document's bytes, decoded exactly as `FileStorage.load` decodes a file's bytes.
public enum Documents {
    /// The value in `bytes`, or `nil` when the library would keep the file aside as bad.
    ///
    /// The document's `formatVersion` chooses the decoding, as it does for a file: version 1
    /// (dates as seconds since 2001, the synthesized enum shapes) or version 2 (ISO 8601 dates,
    /// the named keys); a newer version is refused.
    ///
    /// The problem's description is built too, as the library builds it for its report. A value
    /// that loads is then written as the store's next change writes it, and must read back as
    /// itself: a document that loads but can't be written would leave its store unable to change.
    public static func decode<Value: Codable & Equatable & Sendable>(
        _ type: Value.Type, _ bytes: UnsafeRawBufferPointer
    ) -> Value? {
        guard let value = read(type, from: FileContents.bytes(Data(bytes))) else { return nil }
        let written: Data
        do {
            written = try DocumentCoding.encode(value, key: "fuzz")
        } catch {
            preconditionFailure("a document that loads can't be written back: \(error)")
        }
        precondition(read(type, from: .bytes(written)) == value, "a document written back reads as another value")
        return value
    }

    private static func read<Value: Codable & Sendable>(_ type: Value.Type, from contents: FileContents) -> Value? {
        switch DocumentCoding.decode(type, from: contents) {
        case .value(let value):
            return value
        case .migrated, .unmigratable:
            // Only a store with migrations reads a document as older; the fuzzed decoding has none.
            preconditionFailure("bytes were read as a document to migrate without migrations")
        case .missing:
            preconditionFailure("bytes were read as a missing document")
        case .newerFormat, .newerValueVersion, .otherStore:
            // A newer version's document, or another store's: left in place, never read.
            return nil
        case .bad(let problem):
            _ = problem.tag
            _ = String(describing: problem)
            return nil
        }
    }
}

/// The wall clock's "now" in every run, so that a crash reproduces: a day in May 2025.
public let fuzzNow = Date(timeIntervalSinceReferenceDate: 768_560_000)
