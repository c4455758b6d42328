import SingletonStoresTestSupport
import Foundation
import StoreObservation
import SingletonStoresTesting
import Stores
import Testing

@Suite struct UserProfileStoreTests {
    @Test func intentsPersistAndRoundTripThroughAFreshStore() throws {
        try withTemporaryFolder { folder in
            let storage = FileStorage(folder: folder)
            let store = UserProfileStore(storage: storage, center: NotificationCenter())
            try store.setNickname("Aki")
            try store.setGender(.female)
            try store.setRank(.gold)
            try store.setBetaUser(true)
            try store.setID("u-42")

            let relaunched = UserProfileStore(storage: FileStorage(folder: folder), center: NotificationCenter())
            #expect(
                relaunched.profile
                    == UserProfile(
                        id: "u-42", nickname: "Aki", gender: .female, rank: .gold, isBetaUser: true))
            #expect(relaunched.loadProblem == nil)
        }
    }

    @Test func eachChangeIsPostedOnceAndNoOpWritesPostNothing() throws {
        let center = NotificationCenter()
        let recorder = ChangeRecorder(center: center)
        let store = UserProfileStore(storage: InMemoryStorage(), center: center)
        try store.setNickname("Aki")
        try store.setNickname("Aki")
        try store.setGender(.male)
        #expect(recorder.newValues(of: .userProfile).map(\.nickname) == ["Aki", "Aki"])
        #expect(recorder.newValues(of: .userProfile).map(\.gender) == [nil, .male])
    }

    @Test func corruptedProfileIsKeptAsideStartsFromDefaultsAndIsReported() throws {
        try withTemporaryFolder { folder in
            let file = folder.appending(path: "profile.json")
            let garbage = Data("{\"formatVersion\":1,\"value\":{\"nickname\":".utf8)
            try garbage.write(to: file)
            let reports = Recorder<StoreIssue>()
            let store = UserProfileStore(
                storage: FileStorage(folder: folder), center: NotificationCenter(),
                reportIssue: { reports.append($0) })

            #expect(store.profile == UserProfile())
            let problem = try #require(store.loadProblem)
            #expect(problem.file?.lastPathComponent == "profile.json")
            let kept = try #require(problem.keptFile)
            #expect(try Data(contentsOf: kept) == garbage, "the bad file is kept byte for byte")
            #expect(reports.values == [.storageRecovered(problem)])

            try store.setNickname("fresh")  // the next write starts a good document
            #expect(
                UserProfileStore(storage: FileStorage(folder: folder), center: NotificationCenter()).profile.nickname == "fresh")
        }
    }

    @Test func unknownGenderCodeOnDiskIsReportedKeptAndReadAsNoGender() throws {
        let storage = InMemoryStorage()
        var stored = UserProfile(nickname: "Kei")
        stored.genderCode = 7
        try storage.save(stored, to: StoreDocument(key: "profile", default: stored))
        let reports = Recorder<StoreIssue>()
        let store = UserProfileStore(storage: storage, center: NotificationCenter(), reportIssue: { reports.append($0) })
        #expect(reports.values == [.unknownGenderCode(7)])
        #expect(store.profile.gender == nil)
        #expect(store.profile.genderCode == 7, "the stored code is not lost")
        #expect(GenderStore(profile: store).genderCode == nil)
        try store.setNickname("Kei 2")
        #expect(storage.value(UserProfile.self, forKey: "profile")?.genderCode == 7)
    }

    @Test func unknownRankFromANewerServerRoundTrips() throws {
        let storage = InMemoryStorage()
        let store = UserProfileStore(storage: storage, center: NotificationCenter())
        try store.setRank(UserRank(rawValue: "diamond"))
        let relaunched = UserProfileStore(storage: storage, center: NotificationCenter())
        #expect(relaunched.profile.rank.rawValue == "diamond")
    }

    @Test func failedWriteChangesNothingInMemory() throws {
        let storage = InMemoryStorage()
        let store = UserProfileStore(storage: storage, center: NotificationCenter())
        let failure = StorageError.writeFailed(file: InMemoryStorage.location(forKey: "profile"), reason: "disk full")
        storage.simulateWriteFailure(failure, forKey: "profile")
        #expect(throws: StorageError.self) { try store.setNickname("lost?") }
        #expect(store.profile.nickname == "")
    }

    @Test func anUnwatchedStorePicksUpAnotherProcessesWriteByReload() throws {
        try withTemporaryFolder { folder in
            let mine = UserProfileStore(storage: FileStorage(folder: folder), center: NotificationCenter(), watching: .off)
            let theirs = UserProfileStore(storage: FileStorage(folder: folder), center: NotificationCenter())
            try theirs.setNickname("from elsewhere")
            #expect(mine.profile.nickname == "")
            try mine.reload()
            #expect(mine.profile.nickname == "from elsewhere")
            try mine.setBetaUser(true)  // an update starts from the file, never from a stale copy
            #expect(mine.profile.nickname == "from elsewhere")
        }
    }

    @Test(.ownThread) func aWatchedStoreFollowsAnotherInstancesWriteOnItsOwn() throws {
        try withTemporaryFolder { folder in
            let center = NotificationCenter()
            let nicknames = Recorder<String>()
            let mine = UserProfileStore(storage: FileStorage(folder: folder), center: center)
            let token = mine.observe { nicknames.append($0.new.nickname) }
            defer { token.cancel() }
            let theirs = UserProfileStore(storage: FileStorage(folder: folder), center: NotificationCenter())
            try theirs.setNickname("from elsewhere")
            // The change is committed, then posted: wait for the post, not just the state.
            #expect(eventually { nicknames.values == ["from elsewhere"] })
            #expect(mine.profile.nickname == "from elsewhere")
        }
    }
}

@Suite struct APITargetStoreTests {
    @Test func productionByDefaultPersistedChoiceRoundTrips() throws {
        try withTemporaryFolder { folder in
            let center = NotificationCenter()
            let recorder = ChangeRecorder(center: center)
            let store = APITargetStore(storage: FileStorage(folder: folder), center: center)
            #expect(store.target == .production)
            try store.select(.dev01)
            #expect(APITargetStore(storage: FileStorage(folder: folder), center: center).target == .dev01)
            #expect(recorder.newValues(of: .apiTarget) == [.dev01])
            #expect(WebViewLink.help.toURLString(api: store) == "https://dev01.hoge.com/api/web/help")
        }
    }

    @Test func stubMatchesProductionForEveryTarget() async throws {
        for target in APITarget.allCases {
            let parity = ContractParity<any APITargetStoreContract>(
                production: {
                    let store = APITargetStore(storage: InMemoryStorage(), center: NotificationCenter())
                    try store.select(target)
                    return store
                },
                stub: { APITargetStoreStub(target: target) })
            try await parity.verify { WebViewLink.help.toURLString(api: $0) }
        }
    }
}
