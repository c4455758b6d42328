// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The last snippet of the article "From a plain singleton" (Sources/SingletonStores/
// SingletonStores.docc), verbatim between the markers: the built-in stores keep the names of the
// starting point. Its test runs as part of the suite, and `startBoost` runs below on a stub.
// QuickStartTests/ArticleSnippetTests checks that the article and this file agree.
import Foundation

// Article "FromAPlainSingleton" snippet 8: begin
import Stores
import Testing

func startBoost(minutes: Int, boost: any BoostTimeManagerContract = StoreValues.current.boost) {
    boost.startCountDown(duration: minutes * 60)
}

@Test func helpLinkCarriesTheGenderOnDev01() {
    let url = WebViewLink.help.toURLString(
        params: [.gender(GenderStoreStub(isFemale: true, isNilGenderCode: false))],
        api: APITargetStoreStub(target: .dev01))
    #expect(url == "https://dev01.hoge.com/api/web/help?gender_code=2")
}
// Article "FromAPlainSingleton" snippet 8: end

@Suite struct FromAPlainSingletonBuiltInsTests {
    @Test func startBoostStartsTheCurrentBoost() {
        let stub = BoostTimeManagerStub(remainingSeconds: 0, center: NotificationCenter())
        withStores { $0.boost = stub } operation: {
            startBoost(minutes: 15)
        }
        #expect(stub.remainingSeconds == 15 * 60)
    }
}
