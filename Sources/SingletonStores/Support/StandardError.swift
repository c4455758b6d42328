import Foundation

/// Writes one line to standard error without touching the global `stderr` stream, which Swift 6
/// rejects as not concurrency-safe.
func writeLineToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
