import Foundation
import FuzzSupport
import Stores

/// The `apiTarget` document: decoded as a launch reads it, loaded by `APITargetStore`, and
/// every web link built on it.
@main
enum FuzzAPITarget {
    static func main() { runLibFuzzer(fuzzAPITarget) }
}

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPITarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let target = Documents.decode(APITarget.self, UnsafeRawBufferPointer(start: start, count: count)) else {
        return 0
    }
    let store = APITargetStore(
        storage: InMemoryStorage(["apiTarget": target]), center: NotificationCenter(), reportIssue: { _ in })
    precondition(store.target == target, "the store did not load the stored target")
    for link in WebViewLink.allCases {
        let url = link.toURLString(api: store)
        precondition(url.hasPrefix(target.baseWebURLString), "\(url) is not on \(target)")
    }
    return 0
}
