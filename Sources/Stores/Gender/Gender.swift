/// A person's gender as an ISO/IEC 5218 code, the form the server expects
/// (`gender_code=2` for a woman).
///
/// ```swift
/// let female = Gender(isoCode: 2)        // .female
/// let code = Gender.male.isoCode           // 1
/// let unknown = Gender(isoCode: 7)        // nil: not an ISO/IEC 5218 code
/// ```
public enum Gender: Int, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Not known (code 0).
    case notKnown = 0
    /// Male (code 1).
    case male = 1
    /// Female (code 2).
    case female = 2
    /// Not applicable (code 9).
    case notApplicable = 9

    /// Creates the gender for an ISO/IEC 5218 code, or `nil` for any other number.
    ///
    /// - Parameter isoCode: 0, 1, 2 or 9.
    public init?(isoCode: Int) {
        self.init(rawValue: isoCode)
    }

    /// The ISO/IEC 5218 code.
    public var isoCode: Int { rawValue }

    /// `male`, `female`, `not known` or `not applicable`.
    public var description: String {
        switch self {
        case .notKnown: "not known"
        case .male: "male"
        case .female: "female"
        case .notApplicable: "not applicable"
        }
    }
}
