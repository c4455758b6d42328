import Foundation
import SingletonStoresTesting
import Stores
import Timers
import Testing

@Suite struct BuiltInLaunchVariantsTests {
    @Test func theBuiltInKeysOfferTheirVariantsByName() throws {
        let launch = try StoreLaunchVariants(
            arguments: ["--store-variant", "boost=running", "--store-variant=gender=female"],
            environment: [StoreLaunchVariants.environmentVariable: "api-target=dev01"])
        var values = StoreValues()
        try values.apply(launch, keys: StoreLaunchVariants.builtInKeys)
        #expect(values.boost.remainingSeconds == 754)
        #expect(values.boost.remainingSeconds.formatted(.countdown) == "12:34")
        #expect(values.apiTarget.target == .dev01)
        #expect(values.gender.isFemale)
        withStores {
            $0 = values
        } operation: {
            #expect(
                WebViewLink.help.toURLString(params: [.gender(StoreValues.current.gender)])
                    == "https://dev01.hoge.com/api/web/help?gender_code=2")
        }
    }

    @Test func everyBuiltInKeyHasAShortUniqueLaunchName() {
        let names = StoreLaunchVariants.builtInKeys.map { $0.launchName }
        #expect(names == ["boost", "api-target", "gender", "profile", "purchases"])
        #expect(Set(names).count == names.count)
    }

    @Test func aVariantTheStoreDoesNotOfferListsTheOnesItDoes() throws {
        let launch = try StoreLaunchVariants(arguments: ["--store-variant", "api-target=dev03"], environment: [:])
        var values = StoreValues()
        #expect(
            throws: StoreLaunchVariantError.unknownVariant("dev03", key: "api-target", known: ["dev01", "dev02", "production"])
        ) {
            try values.apply(launch, keys: StoreLaunchVariants.builtInKeys)
        }
    }
}
