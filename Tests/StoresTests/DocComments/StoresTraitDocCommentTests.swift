// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of StoresTrait's doc comment, which use the built-in stores, verbatim between the
// markers, so that they compile and run. QuickStartTests/DocCommentSnippetTests checks that they
// agree.
import SingletonStoresTesting
import Stores
import Testing
import Timers

// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 1: begin
@Test(.stores { $0.gender = GenderStoreStub(isFemale: true, isNilGenderCode: false) })
func helpLinkCarriesTheGender() {
    let url = WebViewLink.help.toURLString(
        params: [.gender(StoreValues.current.gender)], api: APITargetStoreStub(target: .dev01))
    #expect(url.hasSuffix("?gender_code=2"))
}

@Suite(.stubbedStores, .strictStores)
struct StubbedBoostTests {
    @Test func noBoostIsRunning() {
        #expect(!StoreValues.current.boost.isInBoostTime)
    }
}
// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 1: end

// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 2: begin
@Test(.stores { $0.boost = BoostTimeManagerStub(remainingSeconds: 754) })
func popupShowsTheBoost() {
    #expect(StoreValues.current.boost.remainingSeconds.formatted(.countdown) == "12:34")
}
// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 2: end

// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 4: begin
@Suite(.strictStores)
struct BoostPopupTests {
    @Test(.stores { $0.boost = BoostTimeManagerStub(remainingSeconds: 754) })
    func showsTheTimeLeft() {
        #expect(StoreValues.current.boost.remainingSeconds == 754)  // passes
    }

    @Test func forgotTheStub() {
        withKnownIssue {  // without it, the test fails: "…BoostTimeManagerKey… was read…"
            #expect(StoreValues.current.boost.remainingSeconds == 0)  // the stub's value
        }
    }
}
// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 4: end
