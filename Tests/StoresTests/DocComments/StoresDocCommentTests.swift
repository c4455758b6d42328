// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The doc-comment examples of the built-in stores (Sources/Stores), verbatim between the markers,
// so that they always compile; QuickStartTests/DocCommentSnippetTests checks that they match.
// Those that use the shared stores — the user's data folder — or process-wide state (the default
// notification center, the store registry) are compiled, not run; the others run on stubs,
// in-memory storage and manual clocks, with expectations.
import Foundation
import SingletonStores
import StoreObservation
import Stores
import Testing
import Timers

/// A stand-in for a UI label, for the examples that redraw one.
private final class StoresDocLabel: @unchecked Sendable {
    var text = ""
}

// MARK: - Links

@Test func storesDocAPITarget() {
// Doc "Stores/Links/APITarget.swift" snippet 1: begin
let base = APITarget.dev01.baseWebURLString   // "https://dev01.hoge.com"
let target = APITarget(rawValue: "dev02")       // .dev02
// Doc "Stores/Links/APITarget.swift" snippet 1: end
    #expect(base == "https://dev01.hoge.com")
    #expect(target == .dev02)
}

func storesDocAPITargetStore() {  // compiled, not run: it would write to the user's data folder
    do {
// Doc "Stores/Links/APITargetStore.swift" snippet 1: begin
try APITargetStore.shared.select(.dev01)
let url = WebViewLink.help.toURLString()   // "https://dev01.hoge.com/api/web/help"
// Doc "Stores/Links/APITargetStore.swift" snippet 1: end
        _ = url
    } catch {
        print(error)
    }
}

@Test func storesDocAPITargetStoreStub() {
// Doc "Stores/Links/APITargetStoreStub.swift" snippet 1: begin
let api = APITargetStoreStub(target: .dev02)
let url = WebViewLink.help.toURLString(api: api)   // "https://dev02.hoge.com/api/web/help"
// Doc "Stores/Links/APITargetStoreStub.swift" snippet 1: end
    #expect(url == "https://dev02.hoge.com/api/web/help")
}

func storesDocGetParameterType() -> String {  // compiled, not run: it reads the shared stores
// Doc "Stores/Links/GetParameterType.swift" snippet 1: begin
let url = WebViewLink.help.toURLString(params: [.gender(StoreValues.current.gender)])
// Doc "Stores/Links/GetParameterType.swift" snippet 1: end
    return url
}

func storesDocWebViewLink() -> [String] {  // compiled, not run: the first part reads the shared stores
// Doc "Stores/Links/WebViewLink.swift" snippet 1: begin
// In app code: the current API target, the current user's gender.
let url = WebViewLink.help.toURLString(params: [.gender(StoreValues.current.gender)])

// In a test: stubs, no set-up.
let stubbed = WebViewLink.help.toURLString(
    params: [.gender(GenderStoreStub(isFemale: true, isNilGenderCode: false))],
    api: APITargetStoreStub(target: .dev01))
// "https://dev01.hoge.com/api/web/help?gender_code=2"
// Doc "Stores/Links/WebViewLink.swift" snippet 1: end
    return [url, stubbed]
}

// MARK: - Gender

@Test func storesDocGender() {
// Doc "Stores/Gender/Gender.swift" snippet 1: begin
let female = Gender(isoCode: 2)        // .female
let code = Gender.male.isoCode           // 1
let unknown = Gender(isoCode: 7)        // nil: not an ISO/IEC 5218 code
// Doc "Stores/Gender/Gender.swift" snippet 1: end
    #expect(female == .female)
    #expect(code == 1)
    #expect(unknown == nil)
}

func storesDocGenderStore() {  // compiled, not run: it would write to the user's data folder
    do {
// Doc "Stores/Gender/GenderStore.swift" snippet 1: begin
try UserProfileStore.shared.setGender(.female)
let isFemale = GenderStore.shared.isFemale      // true
let code = GenderStore.shared.genderCode        // 2
// Doc "Stores/Gender/GenderStore.swift" snippet 1: end
        _ = (isFemale, code)
    } catch {
        print(error)
    }
}

@Test func storesDocGenderStoreContract() {
// Doc "Stores/Gender/GenderStoreContract.swift" snippet 1: begin
func welcome(gender: any GenderStoreContract = StoreValues.current.gender) -> String {
    gender.isFemale ? "Welcome, ma'am" : "Welcome"
}
// Doc "Stores/Gender/GenderStoreContract.swift" snippet 1: end
    #expect(welcome(gender: GenderStoreStub(isFemale: true, isNilGenderCode: false)) == "Welcome, ma'am")
    #expect(welcome(gender: GenderStoreStub(isFemale: false, isNilGenderCode: false)) == "Welcome")
}

@Test func storesDocGenderStoreStub() {
// Doc "Stores/Gender/GenderStoreStub.swift" snippet 1: begin
let url = WebViewLink.help.toURLString(
    params: [.gender(GenderStoreStub(isFemale: true, isNilGenderCode: false))],
    api: APITargetStoreStub(target: .dev01))
// "https://dev01.hoge.com/api/web/help?gender_code=2"
// Doc "Stores/Gender/GenderStoreStub.swift" snippet 1: end
    #expect(url == "https://dev01.hoge.com/api/web/help?gender_code=2")
}

// MARK: - Profile

@Test func storesDocUserProfile() {
// Doc "Stores/Profile/UserProfile.swift" snippet 1: begin
var profile = UserProfile()
profile.nickname = "Aki"
profile.gender = .female
let code = profile.genderCode   // 2
// Doc "Stores/Profile/UserProfile.swift" snippet 1: end
    #expect(code == 2)
}

@Test func storesDocUserRank() {
// Doc "Stores/Profile/UserProfile.swift" snippet 2: begin
let gold = UserRank.gold.rawValue           // "gold"
let newer = UserRank(rawValue: "diamond")  // kept, not an error: a newer server may send it
// Doc "Stores/Profile/UserProfile.swift" snippet 2: end
    #expect(gold == "gold")
    #expect(newer.rawValue == "diamond")
}

func storesDocUserProfileStore() {  // compiled, not run: it would write to the user's data folder
    do {
// Doc "Stores/Profile/UserProfileStore.swift" snippet 1: begin
let token = UserProfileStore.shared.observe { change in
    print("nickname: \(change.new.nickname)")
}
try UserProfileStore.shared.setNickname("Aki")
// Doc "Stores/Profile/UserProfileStore.swift" snippet 1: end
        _ = token
    } catch {
        print(error)
    }
}

@Test func storesDocUserProfileStoreContract() throws {
    try withStores { $0.profile = UserProfileStoreStub() } operation: {
// Doc "Stores/Profile/UserProfileStoreContract.swift" snippet 1: begin
let profile = StoreValues.current.profile
try profile.setNickname("Aki")
let nickname = profile.profile.nickname   // "Aki"
// Doc "Stores/Profile/UserProfileStoreContract.swift" snippet 1: end
        #expect(nickname == "Aki")
    }
}

@Test func storesDocUserProfileStoreStub() {
// Doc "Stores/Profile/UserProfileStoreStub.swift" snippet 1: begin
let stub = UserProfileStoreStub(UserProfile(nickname: "Aki", gender: .female))
stub.setRank(.gold)
let rank = stub.profile.rank   // .gold
// Doc "Stores/Profile/UserProfileStoreStub.swift" snippet 1: end
    #expect(rank == .gold)
}

// MARK: - Purchase

@Test func storesDocPurchaseLedger() {
    let now = Date(timeIntervalSince1970: 1_000_000)
// Doc "Stores/Purchase/PurchaseLedger.swift" snippet 1: begin
var ledger = PurchaseLedger()
ledger.append(.boostItemsBought(3), at: now)
ledger.append(.boostItemUsed, at: now)
let items = ledger.boostItems   // 2
// Doc "Stores/Purchase/PurchaseLedger.swift" snippet 1: end
    #expect(items == 2)
}

@Test func storesDocLedgerCheckpoint() {
    let now = Date(timeIntervalSince1970: 1_000_000)
// Doc "Stores/Purchase/LedgerCheckpoint.swift" snippet 1: begin
var ledger = PurchaseLedger()
ledger.append(.boostItemsBought(3), at: now, receiptID: "r-1")
ledger.append(.boostItemUsed, at: now)
ledger.compact(keepingLast: 0)
let folded = ledger.checkpoint?.entryCount   // 2
let recent = ledger.entries                  // []
let items = ledger.boostItems                // 2, as before
// Doc "Stores/Purchase/LedgerCheckpoint.swift" snippet 1: end
    #expect(folded == 2)
    #expect(recent.isEmpty)
    #expect(items == 2)
}

@Test func storesDocPurchaseProduct() {
// Doc "Stores/Purchase/PurchaseProduct.swift" snippet 1: begin
let items = PurchaseProduct.boostItems(3)       // three boost items
let premium = PurchaseProduct.premium(days: 30)  // thirty days of premium
// Doc "Stores/Purchase/PurchaseProduct.swift" snippet 1: end
    #expect(items == .boostItems(3))
    #expect(premium != items)
}

func storesDocLocalPurchaseBackend() async throws {  // compiled, not run: it would write to the user's data folder
// Doc "Stores/Purchase/LocalPurchaseBackend.swift" snippet 1: begin
let purchases = PurchaseManager(backend: LocalPurchaseBackend(storage: FileStorage()))
try await purchases.buy(.boostItems(3))
// Doc "Stores/Purchase/LocalPurchaseBackend.swift" snippet 1: end
}

func storesDocPurchaseManager() async throws {  // compiled, not run: it would write to the user's data folder
// Doc "Stores/Purchase/PurchaseManager.swift" snippet 1: begin
try await PurchaseManager.shared.buy(.boostItems(3))
let owned = PurchaseManager.shared.ownedBoostItems   // 3
try PurchaseManager.shared.useBoostItem(duration: 30 * 60)
// Doc "Stores/Purchase/PurchaseManager.swift" snippet 1: end
    _ = owned
}

@Test func storesDocPurchaseStoreContract() throws {
    try withStores { $0.purchases = PurchaseStoreStub(boostItems: 2) } operation: {
// Doc "Stores/Purchase/PurchaseStoreContract.swift" snippet 1: begin
let purchases = StoreValues.current.purchases
if purchases.ownedBoostItems > 0 {
    try purchases.useBoostItem(duration: 30 * 60)
}
// Doc "Stores/Purchase/PurchaseStoreContract.swift" snippet 1: end
        #expect(purchases.ownedBoostItems == 1)
    }
}

@Test func storesDocPurchaseStoreStub() {
// Doc "Stores/Purchase/PurchaseStoreStub.swift" snippet 1: begin
let purchases = PurchaseStoreStub(boostItems: 2, premiumExpiry: nil)
// Doc "Stores/Purchase/PurchaseStoreStub.swift" snippet 1: end
    #expect(purchases.ownedBoostItems == 2)
    #expect(!purchases.isPremium)
}

@Test func storesDocScriptedPurchaseBackend() {
// Doc "Stores/Purchase/ScriptedPurchaseBackend.swift" snippet 1: begin
let clock = ManualClock()
let backend = ScriptedPurchaseBackend(
    [.succeed, .fail("card declined"), .delay(.seconds(2), then: .cancel)], clock: clock)
// Doc "Stores/Purchase/ScriptedPurchaseBackend.swift" snippet 1: end
    _ = backend
}

func storesDocUnreadableLedgerEntry() {  // compiled, not run: it reads the user's data folder
// Doc "Stores/Purchase/UnreadableLedgerEntry.swift" snippet 1: begin
for entry in PurchaseManager.shared.purchaseLedger.unreadableEntries {
    print("kept, not counted:", entry.reason)
}
// Doc "Stores/Purchase/UnreadableLedgerEntry.swift" snippet 1: end
}

// MARK: - Boost

func storesDocBoostTimeManager() {  // compiled, not run: it would write to the user's data folder
    let label = StoresDocLabel()
// Doc "Stores/Boost/BoostTimeManager.swift" snippet 1: begin
BoostTimeManager.shared.startCountDown(duration: 15 * 60)

// The main screen and the popup, however late it opens, read and redraw the same value.
let token = NotificationChannel.boostTime.observe { seconds in
    label.text = seconds.formatted(.countdown)   // "14:59", "14:58", …
}
let shown = BoostTimeManager.shared.remainingSeconds   // the same value, from any thread
// Doc "Stores/Boost/BoostTimeManager.swift" snippet 1: end
    _ = (token, shown)
}

@Test func storesDocBoostTimeManagerStart() {
    let boost = BoostTimeManager(
        clock: ManualClock(), storage: InMemoryStorage(), center: NotificationCenter(), watching: .off)
    var alerts: [String] = []
    func showAlert(_ message: String) { alerts.append(message) }
// Doc "Stores/Boost/BoostTimeManager.swift" snippet 2: begin
do {
    try boost.start(duration: 15 * 60)
} catch {
    showAlert(error.description)   // the data folder is read-only, the disk is full…
}
// Doc "Stores/Boost/BoostTimeManager.swift" snippet 2: end
    #expect(alerts.isEmpty)
    #expect(boost.remainingSeconds == 15 * 60)
}

func storesDocBoostTimeNotifications() {  // compiled, not run: it observes the default center
    let label = StoresDocLabel()
// Doc "Stores/Boost/BoostTimeNotifications.swift" snippet 1: begin
let token = NotificationChannel.boostTime.observe { seconds in
    label.text = seconds.formatted(.countdown)
}
// Doc "Stores/Boost/BoostTimeNotifications.swift" snippet 1: end
    _ = token
}

@Test func storesDocBoostLabel() {
// Doc "Stores/Boost/BoostTimeManagerContract.swift" snippet 1: begin
func boostLabel(boost: any BoostTimeManagerContract = StoreValues.current.boost) -> String {
    boost.isInBoostTime ? boost.remainingSeconds.formatted(.countdown) : "Boost"
}
// Doc "Stores/Boost/BoostTimeManagerContract.swift" snippet 1: end
// Doc "Stores/Boost/BoostTimeManagerStub.swift" snippet 1: begin
let text = withStores { $0.boost = BoostTimeManagerStub(remainingSeconds: 754) } operation: {
    boostLabel()   // "12:34"
}
// Doc "Stores/Boost/BoostTimeManagerStub.swift" snippet 1: end
    #expect(text == "12:34")
    #expect(boostLabel(boost: BoostTimeManagerStub(remainingSeconds: 0)) == "Boost")
}

@Test func storesDocBoostTimeManagerStubScript() {
    let center = NotificationCenter()
    let seen = StoresDocLabel()
    let token = NotificationChannel.boostTime.observe(center: center) { seconds in seen.text = "\(seconds)" }
// Doc "Stores/Boost/BoostTimeManagerStub.swift" snippet 2: begin
let boost = BoostTimeManagerStub(script: [3, 2, 1, 0], center: center)
boost.advance()   // posts .boostTimeNotification with 2
// Doc "Stores/Boost/BoostTimeManagerStub.swift" snippet 2: end
    #expect(seen.text == "2")
    #expect(boost.remainingSeconds == 2)
    token.cancel()
}

// MARK: - Support

func storesDocBuiltInKeys() {  // compiled, not run: it prepares the process's store registry
    enum CartKey: StoreKey {
        static var stubValue: Int { 0 }
    }
// Doc "Stores/Support/StoreLaunchVariants+BuiltIns.swift" snippet 1: begin
prepareStores { $0.applyLaunchVariants(keys: StoreLaunchVariants.builtInKeys + [CartKey.self]) }
// Doc "Stores/Support/StoreLaunchVariants+BuiltIns.swift" snippet 1: end
}
