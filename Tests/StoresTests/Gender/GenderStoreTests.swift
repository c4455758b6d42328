import Foundation
import SingletonStoresTesting
import Stores
import Testing

@Suite struct GenderStoreTests {
    @Test func isoCodesMapToGenders() {
        #expect(Gender(isoCode: 1) == .male)
        #expect(Gender(isoCode: 2) == .female)
        #expect(Gender(isoCode: 0) == .notKnown)
        #expect(Gender(isoCode: 9) == .notApplicable)
        #expect(Gender(isoCode: 3) == nil)
        #expect(Gender(isoCode: -1) == nil)
    }

    @Test(arguments: [
        (GenderStoreStub(isFemale: true, isNilGenderCode: false), true, false, 2 as Int?),
        (GenderStoreStub(isFemale: false, isNilGenderCode: false), false, true, 1),
        (GenderStoreStub(isFemale: true, isNilGenderCode: true), true, false, nil),
        (GenderStoreStub(isFemale: false, isNilGenderCode: true), false, true, nil),
    ])
    func seedStubInitializerKeepsTheSeedsMeaning(stub: GenderStoreStub, female: Bool, male: Bool, code: Int?) {
        #expect(stub.isFemale == female)
        #expect(stub.isMale == male)
        #expect(stub.genderCode == code)
    }

    @Test func genderIsDerivedFromTheProfileNotStoredTwice() throws {
        let profile = UserProfileStoreStub()
        let gender = GenderStore(profile: profile)
        #expect(gender.genderCode == nil)
        #expect(!gender.isMale && !gender.isFemale)
        profile.setGender(.female)
        #expect(gender.isFemale && !gender.isMale && gender.genderCode == 2)
        profile.setGender(.male)
        #expect(gender.isMale && gender.genderCode == 1)
    }

    @Test(.stores { $0.profile = UserProfileStoreStub(UserProfile(gender: .female)) })
    func sharedGenderStoreFollowsTheCurrentProfileOverride() {
        #expect(GenderStore.shared.isFemale)
        #expect(GenderStore.shared.genderCode == 2)
    }

    @Test func unknownCodeIsNeitherMaleNorFemaleAndSendsNoCode() {
        var raw = UserProfile()
        raw.genderCode = 7
        let gender = GenderStore(profile: UserProfileStoreStub(raw))
        #expect(!gender.isMale && !gender.isFemale)
        #expect(gender.genderCode == nil)
        #expect(raw.unknownGenderCode == 7)
    }

    /// One spec, production store (on a real file) and stub: they must agree for every code.
    @Test(arguments: [nil, 0, 1, 2, 9, 42] as [Int?])
    func genderStubMatchesProduction(code: Int?) async throws {
        let parity = ContractParity<any GenderStoreContract>(
            production: {
                let storage = InMemoryStorage()
                var profile = UserProfile()
                profile.genderCode = code
                try storage.save(profile, to: StoreDocument(key: "profile", default: profile))
                let profiles = UserProfileStore(storage: storage, center: NotificationCenter(), reportIssue: { _ in })
                return GenderStore(profile: profiles)
            },
            stub: { GenderStoreStub(genderCode: code) })
        try await parity.verify { store in
            "male \(store.isMale) female \(store.isFemale) code \(String(describing: store.genderCode))"
        }
    }
}
