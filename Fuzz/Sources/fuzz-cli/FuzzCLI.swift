import Foundation
import FuzzSupport

/// The demo CLI's command line: the input split on NUL bytes into arguments, parsed as
/// `demo-cli` parses its arguments, then what the CLI derives without touching any store: the
/// help page asked for, the error line printed, a flow's diagram or replay.
@main
enum FuzzCLI {
    static func main() { runLibFuzzer(fuzzCLI) }
}

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCLI(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let arguments = FuzzInput.strings(UnsafeRawBufferPointer(start: start, count: count))
    let invocation: Invocation
    do {
        invocation = try CommandLineParser.parse(arguments)
    } catch {
        _ = error.description
        if !error.command.isEmpty { _ = HelpText.page(for: error.command.split(separator: " ").map(String.init)) }
        return 0
    }
    switch invocation.command {
    case .help(let path):
        _ = HelpText.page(for: path)
    case .flow(.replay(let route)):
        _ = try? FlowCatalog.replay(route)
    case .flow(.mermaid(let flow)):
        _ = try? FlowCatalog.mermaid(flow)
    case .flow(.list):
        _ = FlowCatalog.listing()
    default:
        break
    }
    return 0
}
