import Foundation
import FuzzSupport
import Stores

/// The `profile` document: decoded as a launch reads it, loaded by `UserProfileStore` (which
/// reports an unknown gender code), read through `GenderStore`, and put in a link's query.
@main
enum FuzzProfile {
    static func main() { runLibFuzzer(fuzzProfile) }
}

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let profile = Documents.decode(UserProfile.self, UnsafeRawBufferPointer(start: start, count: count)) else {
        return 0
    }
    let store = UserProfileStore(
        storage: InMemoryStorage(["profile": profile]), center: NotificationCenter(), reportIssue: { issue in
            _ = issue.description
        })
    let loaded = store.profile
    _ = loaded.gender?.description
    _ = loaded.unknownGenderCode
    _ = loaded.rank.description
    let gender = GenderStore(profile: store)
    _ = (gender.isMale, gender.isFemale, gender.genderCode)
    for link in WebViewLink.allCases {
        _ = link.toURLString(
            params: [.gender(gender), .custom(name: "nickname", value: loaded.nickname), .custom(name: loaded.id ?? "id", value: loaded.rank.rawValue)],
            api: APITargetStoreStub(target: .production))
    }
    return 0
}
