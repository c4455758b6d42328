import SingletonStores

extension StoreIssue {
    /// The stored profile has a gender code that is not an ISO/IEC 5218 code (0, 1, 2 or 9). It
    /// is kept as it is and reads as no gender.
    ///
    /// ``UserProfileStore`` reports it once, when it loads the profile.
    ///
    /// - Parameter code: The code found in the `profile` document.
    public static func unknownGenderCode(_ code: Int) -> StoreIssue {
        .unusableStoredValue(
            key: "profile",
            message: "gender code \(code) is not an ISO/IEC 5218 code (0, 1, 2 or 9). It is kept "
                + "unchanged and read as no gender; set the gender again to replace it.")
    }
}
