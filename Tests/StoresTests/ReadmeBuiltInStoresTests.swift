// The README's built-in stores example, verbatim between the markers, so that it always compiles.
// It uses the production singletons, so it is compiled but not run. QuickStartTests checks that
// README.md and this file agree.
import Stores
import Timers

func readmeBuiltInStoresExample() async throws -> ObservationToken {
    // README built-in stores: begin
BoostTimeManager.shared.startCountDown(duration: 15 * 60)     // every screen shows the same mm:ss
let token = NotificationChannel.boostTime.observe { seconds in print(seconds.formatted(.countdown)) }

print(WebViewLink.help.toURLString(
    params: [.gender(GenderStoreStub(isFemale: true, isNilGenderCode: false))],
    api: APITargetStoreStub(target: .dev01)))                 // https://dev01.hoge.com/api/web/help?gender_code=2

try await PurchaseManager.shared.buy(.boostItems(3))
try PurchaseManager.shared.useBoostItem(duration: 30 * 60)    // spends one item only if the boost starts
    // README built-in stores: end
    return token
}
