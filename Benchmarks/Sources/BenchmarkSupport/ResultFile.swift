import Foundation

/// Writes `results` as sorted, indented JSON to `path` — the export `benchmark-table` reads —
/// or, if that fails, says so on standard error as `program` and exits with status 1.
public func writeResults(_ results: some Encodable, to path: String, program: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
        try encoder.encode(results).write(to: URL(fileURLWithPath: path))
    } catch {
        FileHandle.standardError.write(Data("\(program): cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}
