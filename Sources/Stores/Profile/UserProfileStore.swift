import Foundation
import SingletonStores
import StoreObservation

extension NotificationChannel where Payload == StoreChange<UserProfile> {
    /// Every committed change of the user profile.
    public static let userProfile = NotificationChannel("SingletonStores.UserProfileStore.changed")
}

/// The production profile store: persisted as the `profile` document.
///
/// ```swift
/// let token = UserProfileStore.shared.observe { change in
///     print("nickname: \(change.new.nickname)")
/// }
/// try UserProfileStore.shared.setNickname("Aki")
/// ```
///
/// The gender lives here and only here; ``GenderStore`` derives from it. A stored gender code
/// that is not an ISO/IEC 5218 code is kept, reads as no gender, and is reported once at load
/// as ``SingletonStores/StoreIssue/unknownGenderCode(_:)``.
public final class UserProfileStore: UserProfileStoreContract {
    /// The app's profile store, persisted in the default data folder.
    public static let shared = UserProfileStore()

    private let persisted: PersistentStoreCore<UserProfile>
    /// The store's document, `profile`.
    static let document = StoreDocument<UserProfile>(key: "profile", default: UserProfile())

    /// Creates a profile store.
    ///
    /// - Parameters:
    ///   - storage: Where the `profile` document lives.
    ///   - center: The notification center changes are posted to.
    ///   - watching: How the store follows changes other processes write to its document;
    ///     file events or a poll by default, `.off` to read it only at launch and on writes.
    ///   - reportIssue: Receives load problems; prints to standard error by default.
    public init(
        storage: any StoreStorage = FileStorage(),
        center: NotificationCenter = .default,
        watching: StorageWatching = .automatic,
        reportIssue: @escaping @Sendable (StoreIssue) -> Void = StoreIssue.printToStandardError
    ) {
        persisted = PersistentStoreCore(
            Self.document, storage: storage, channel: .userProfile, center: center, watching: watching,
            reportIssue: reportIssue)
        if let code = persisted.state.unknownGenderCode { reportIssue(.unknownGenderCode(code)) }
    }

    /// The current profile.
    public var profile: UserProfile { persisted.state }

    /// The notification center changes are posted to.
    public var center: NotificationCenter { persisted.center }

    /// The problem found when the profile was loaded, if its document was kept aside.
    public var loadProblem: StorageError? { persisted.loadProblem }

    /// Sets the name shown to other users.
    public func setNickname(_ nickname: String) throws(StorageError) {
        try persisted.update { $0.nickname = nickname }
    }

    /// Sets the gender, or clears it with `nil`.
    public func setGender(_ gender: Gender?) throws(StorageError) {
        try persisted.update { $0.gender = gender }
    }

    /// Sets the membership rank.
    public func setRank(_ rank: UserRank) throws(StorageError) {
        try persisted.update { $0.rank = rank }
    }

    /// Turns beta features on or off for the user.
    public func setBetaUser(_ isBetaUser: Bool) throws(StorageError) {
        try persisted.update { $0.isBetaUser = isBetaUser }
    }

    /// Records the server id the user signed up with.
    ///
    /// - Parameter id: The id, or `nil` to sign out.
    public func setID(_ id: String?) throws(StorageError) {
        try persisted.update { $0.id = id }
    }

    /// Re-reads the profile, adopting changes another process made.
    public func reload() throws(StorageError) {
        try persisted.reload()
    }

    /// Calls `handler` with every committed profile change.
    ///
    /// - Parameters:
    ///   - delivery: Where the handler runs; the posting thread by default.
    ///   - handler: Called with each change.
    /// - Returns: A token that keeps the observer registered.
    public func observe(
        on delivery: ObservationDelivery = .postingThread,
        _ handler: @escaping @Sendable (StoreChange<UserProfile>) -> Void
    ) -> ObservationToken {
        persisted.observe(on: delivery, handler)
    }
}
