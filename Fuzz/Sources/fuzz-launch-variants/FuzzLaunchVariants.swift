import FuzzSupport
import Stores

/// Launch variants: the input's NUL-separated strings are the arguments, the first one also the
/// `SINGLETON_STORES_VARIANTS` value; parsed, then applied to the built-in keys.
@main
enum FuzzLaunchVariants {
    static func main() { runLibFuzzer(fuzzLaunchVariants) }
}

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLaunchVariants(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let strings = FuzzInput.strings(UnsafeRawBufferPointer(start: start, count: count))
    let environment = strings.first.map { [StoreLaunchVariants.environmentVariable: $0] } ?? [:]
    do {
        let launch = try StoreLaunchVariants(arguments: Array(strings.dropFirst()), environment: environment)
        precondition(launch.selections.count <= StoreLaunchVariants.maximumSelections, "too many selections kept")
        precondition(launch.remainingArguments.count < strings.count || strings.isEmpty, "arguments were added")
        var values = StoreValues()
        do {
            try values.apply(launch, keys: StoreLaunchVariants.builtInKeys)
        } catch {
            check(error)
        }
    } catch {
        check(error)
    }
    return 0
}

/// Every message is printable as it is: no control characters from the input.
private func check(_ error: StoreLaunchVariantError) {
    let message = error.description
    precondition(!message.unicodeScalars.contains { $0.properties.generalCategory == .control }, "unescaped: \(message.debugDescription)")
}
