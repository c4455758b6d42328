import Foundation
import FuzzSupport
@testable import SingletonStores
import Stores
import Timers

/// The `boost` document: decoded as a launch reads it, then resumed by `BoostTimeManager` as a
/// launch resumes it, and shown as the app shows it.
@main
enum FuzzBoost {
    static func main() { runLibFuzzer(fuzzBoost) }
}

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBoost(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let record = Documents.decode(CountdownRecord.self, UnsafeRawBufferPointer(start: start, count: count)) else {
        return 0
    }
    let storage = InMemoryStorage(["boost": record])
    let boost = BoostTimeManager(
        clock: ManualClock(), wallClock: .fixed(fuzzNow), storage: storage,
        center: NotificationCenter(), reportIssue: { _ in })
    _ = boost.remainingSeconds.formatted(.countdown)
    _ = boost.isInBoostTime
    if boost.isPaused {
        boost.resume()
    }
    boost.extend(by: 60)
    _ = boost.remainingSeconds.formatted(.countdown)
    boost.stopCountDown()
    return 0
}
