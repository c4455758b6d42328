import LibFuzzerDriver
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Helpers that turn a fuzzer's bytes into structured input.
public enum FuzzInput {
    /// The input split on NUL bytes, each piece decoded as UTF-8 (invalid sequences repaired,
    /// as the standard library repairs a command line). An empty input gives no strings.
    public static func strings(_ bytes: UnsafeRawBufferPointer) -> [String] {
        if bytes.isEmpty { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}


/// Runs libFuzzer on `test` with the process's command line (`-max_total_time=20 CORPUS`, …).
///
/// Each target's `@main` calls this: SwiftPM names an executable's entry point after its module
/// and links `main` to it, so libFuzzer's own `main` cannot be used.
public func runLibFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
