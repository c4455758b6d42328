import Foundation
import SingletonStoresTesting
import Stores
import Testing

@Suite struct WebViewLinkTests {
    /// Seed 004's first URL test, verbatim.
    @Test func helpForAWomanOnDev01CarriesGenderCode2() {
        #expect(
            WebViewLink.help.toURLString(
                params: [.gender(GenderStoreStub(isFemale: true, isNilGenderCode: false))],
                api: APITargetStoreStub(target: .dev01)
            ) == "https://dev01.hoge.com/api/web/help?gender_code=2")
    }

    /// Seed 004's second URL test: a nil gender code leaves the parameter (and the `?`) out.
    @Test func helpWithANilGenderCodeOnDev02HasNoQuery() {
        #expect(
            WebViewLink.help.toURLString(
                params: [.gender(GenderStoreStub(isFemale: false, isNilGenderCode: true))],
                api: APITargetStoreStub(target: .dev02)
            ) == "https://dev02.hoge.com/api/web/help")
    }

    @Test func maleCodeIsOne() {
        let link = WebViewLink.help.toURLString(
            params: [.gender(GenderStoreStub(isFemale: false, isNilGenderCode: false))],
            api: APITargetStoreStub(target: .production))
        #expect(link == "https://www.hoge.com/api/web/help?gender_code=1")
    }

    @Test func queryValuesArePercentEncodedSoTheyCannotSplitTheQuery() throws {
        let link = WebViewLink.terms.toURLString(
            params: [.custom(name: "q", value: "a&b=c d+é#"), .gender(GenderStoreStub(.female))],
            api: APITargetStoreStub(target: .dev01))
        #expect(link == "https://dev01.hoge.com/api/web/terms?q=a%26b%3Dc%20d%2B%C3%A9%23&gender_code=2")
        let items = try #require(URLComponents(string: link)?.queryItems)
        #expect(items == [URLQueryItem(name: "q", value: "a&b=c d+é#"), URLQueryItem(name: "gender_code", value: "2")])
    }

    @Test func keyValueStringMatchesTheSeed() {
        #expect(GetParameterType.gender(GenderStoreStub(.male)).keyValueString == "gender_code=1")
        #expect(GetParameterType.gender(GenderStoreStub(nil)).keyValueString == nil)
    }

    /// App code passes nothing: the current stores of the registry are used.
    /// Strict: a default that reached a production store would fail the test.
    @Test(
        .strictStores,
        .stores {
            $0.apiTarget = APITargetStoreStub(target: .dev02)
            $0.gender = GenderStoreStub(.female)
        })
    func defaultsComeFromTheCurrentStores() {
        #expect(
            WebViewLink.help.toURLString(params: [.gender(StoreValues.current.gender)])
                == "https://dev02.hoge.com/api/web/help?gender_code=2")
        #expect(WebViewLink.privacy.url() == URL(string: "https://dev02.hoge.com/api/web/privacy"))
    }
}
