import Foundation
@testable import Stores

/// A persisted document's bytes, decoded exactly as `FileStorage.load` decodes a file's bytes.
public enum Documents {
    /// The value in `bytes`, or `nil` when the library would keep the file aside as bad.
    ///
    /// The problem's description is built too, as the library builds it for its report.
    public static func decode<Value: Codable>(_ type: Value.Type, _ bytes: UnsafeRawBufferPointer) -> Value? {
        let contents = FileContents.bytes(Data(bytes))
        switch DocumentCoding.decode(type, from: contents, supportedVersion: FileStorage.formatVersion) {
        case .value(let value):
            return value
        case .missing:
            preconditionFailure("bytes were read as a missing document")
        case .bad(let problem):
            _ = problem.tag
            _ = String(describing: problem)
            return nil
        }
    }
}

/// The wall clock's "now" in every run, so that a crash reproduces: a day in May 2025.
public let fuzzNow = Date(timeIntervalSinceReferenceDate: 768_560_000)
