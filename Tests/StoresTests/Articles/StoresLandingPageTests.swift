// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the Stores library's landing page (Sources/Stores/Stores.docc/Stores.md),
// verbatim between the markers, compiled and run below with stubs.
// QuickStartTests/ArticleSnippetTests checks that the page and this file agree.
import SingletonStoresTesting
import Stores
import Testing

// Article "Stores" snippet 1: begin
func helpURL(
    gender: any GenderStoreContract = StoreValues.current.gender,
    api: any APITargetStoreContract = StoreValues.current.apiTarget
) -> String {
    WebViewLink.help.toURLString(params: [.gender(gender)], api: api)
}
// Article "Stores" snippet 1: end

@Suite struct StoresLandingPageTests {
    @Test(.stores {
        $0.gender = GenderStoreStub(isFemale: true, isNilGenderCode: false)
        $0.apiTarget = APITargetStoreStub(target: .dev02)
    })
    func theHelpURLReadsTheCurrentStores() {
        #expect(helpURL() == "https://dev02.hoge.com/api/web/help?gender_code=2")
    }
}
