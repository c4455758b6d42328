/// A gender store that returns the values it was made with, for tests, previews and debug
/// screens.
///
/// ```swift
/// let url = WebViewLink.help.toURLString(
///     params: [.gender(GenderStoreStub(isFemale: true, isNilGenderCode: false))],
///     api: APITargetStoreStub(target: .dev01))
/// // "https://dev01.hoge.com/api/web/help?gender_code=2"
/// ```
public struct GenderStoreStub: GenderStoreContract, Equatable {
    /// Whether the stub reports a male user.
    public let isMale: Bool
    /// Whether the stub reports a female user.
    public let isFemale: Bool
    /// The code the stub reports.
    public let genderCode: Int?

    /// A female or male user, optionally without a code.
    ///
    /// `isMale` is `!isFemale`, and `isNilGenderCode` withholds the code
    /// independently — the case of a user whose gender is known but who sends no code.
    ///
    /// - Parameters:
    ///   - isFemale: `true` for a female user, `false` for a male one.
    ///   - isNilGenderCode: `true` to report no gender code.
    public init(isFemale: Bool, isNilGenderCode: Bool) {
        self.isFemale = isFemale
        self.isMale = !isFemale
        self.genderCode = isNilGenderCode ? nil : (isFemale ? Gender.female : Gender.male).isoCode
    }

    /// A stub that behaves exactly as the production ``GenderStore`` does for a stored code.
    ///
    /// Code 1 is male, 2 is female; any other code — or `nil` — is neither. Codes that are not
    /// ISO/IEC 5218 codes are reported as `nil`, as the production store does.
    ///
    /// - Parameter genderCode: The stored code, or `nil` for a user who has not set one.
    public init(genderCode: Int?) {
        let gender = genderCode.flatMap(Gender.init(isoCode:))
        self.isMale = gender == .male
        self.isFemale = gender == .female
        self.genderCode = gender?.isoCode
    }

    /// A stub for `gender`, or for a user with no gender when `nil`.
    ///
    /// - Parameter gender: The gender to report.
    public init(_ gender: Gender?) {
        self.init(genderCode: gender?.isoCode)
    }
}
