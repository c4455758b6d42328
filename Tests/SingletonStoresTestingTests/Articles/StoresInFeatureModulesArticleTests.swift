// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of the documentation, laid out as the
// documentation shows it, so the formatter leaves this file alone.)
// The code of the article "Stores in feature modules" (Sources/SingletonStores/SingletonStores.docc),
// verbatim between the markers, so that it always compiles; QuickStartTests/ArticleSnippetTests
// checks that the article and this file agree. `registerStores` is never called: it would set
// the process's base stores.
import Testing

// Article "StoresInFeatureModules" snippet 1: begin
import Foundation
import SingletonStores

public struct Likes: Codable, Sendable, Equatable {
    public var remaining: Int
    public init(remaining: Int = 10) { self.remaining = remaining }
}

public enum LikesKey: StoreKey {  // no production value here: the app registers it
    public static var stubValue: ValueStore<Likes> { ValueStore(stub: Likes()) }
}

extension StoreValues {
    public var likes: ValueStore<Likes> {
        get { self[LikesKey.self] }
        set { self[LikesKey.self] = newValue }
    }
}

public func likeButtonTitle(likes: ValueStore<Likes> = StoreValues.current.likes) -> String {
    likes.value.remaining > 0 ? "Like (\(likes.value.remaining) left)" : "No likes left today"
}
// Article "StoresInFeatureModules" snippet 1: end

// Article "StoresInFeatureModules" snippet 2: begin
func registerStores() {  // call it first thing at launch
    prepareStores { $0.likes = ValueStore(key: "likes", default: Likes()) }
}
// Article "StoresInFeatureModules" snippet 2: end

// Article "StoresInFeatureModules" snippet 3: begin
@Test func theButtonSaysWhenNoLikesAreLeft() {
    withStores { $0.likes = ValueStore(stub: Likes(remaining: 0)) } operation: {
        #expect(likeButtonTitle() == "No likes left today")
    }
}
// Article "StoresInFeatureModules" snippet 3: end

@Suite struct StoresInFeatureModulesArticleTests {
    @Test func theButtonCountsTheLikesLeft() throws {
        try withStores { $0.likes = ValueStore(stub: Likes()) } operation: {
            #expect(likeButtonTitle() == "Like (10 left)")
            try StoreValues.current.likes.update { $0.remaining -= 1 }
            #expect(likeButtonTitle() == "Like (9 left)")
        }
    }
}
