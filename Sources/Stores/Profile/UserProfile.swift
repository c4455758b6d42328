/// What the app knows about its user: the single place the
/// gender lives.
///
/// ```swift
/// var profile = UserProfile()
/// profile.nickname = "Aki"
/// profile.gender = .female
/// let code = profile.genderCode   // 2
/// ```
public struct UserProfile: Sendable, Codable, Equatable {
    /// The user's id on the server, or `nil` before sign-up.
    public var id: String?
    /// The name shown to other users.
    public var nickname: String
    /// The stored ISO/IEC 5218 code, exactly as persisted. Prefer ``gender``.
    ///
    /// A code that is not an ISO/IEC 5218 code (written by another app version, or edited by
    /// hand) is kept as it is — never dropped — but reads as no gender.
    public var genderCode: Int?
    /// The user's membership rank.
    public var rank: UserRank
    /// Whether the user takes part in beta features.
    public var isBetaUser: Bool

    /// Creates a profile; every field defaults to "not set".
    public init(
        id: String? = nil, nickname: String = "", gender: Gender? = nil,
        rank: UserRank = .regular, isBetaUser: Bool = false
    ) {
        self.id = id
        self.nickname = nickname
        self.genderCode = gender?.isoCode
        self.rank = rank
        self.isBetaUser = isBetaUser
    }

    /// The gender for the stored code, or `nil` when none is set or the code is unknown.
    public var gender: Gender? {
        get { genderCode.flatMap(Gender.init(isoCode:)) }
        set { genderCode = newValue?.isoCode }
    }

    /// The stored code when it is not an ISO/IEC 5218 code; `nil` otherwise.
    public var unknownGenderCode: Int? {
        guard let genderCode, Gender(isoCode: genderCode) == nil else { return nil }
        return genderCode
    }
}

/// A membership rank. Ranks this app version does not know are kept as they were read.
///
/// ```swift
/// let gold = UserRank.gold.rawValue           // "gold"
/// let newer = UserRank(rawValue: "diamond")  // kept, not an error: a newer server may send it
/// ```
public struct UserRank: RawRepresentable, Sendable, Codable, Hashable, CustomStringConvertible {
    /// The rank's name as stored and sent.
    public let rawValue: String

    /// Creates a rank from its stored name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The rank every user starts with.
    public static let regular = UserRank(rawValue: "regular")
    /// Silver membership.
    public static let silver = UserRank(rawValue: "silver")
    /// Gold membership.
    public static let gold = UserRank(rawValue: "gold")

    /// The rank's name.
    public var description: String { rawValue }
}
