extension StorageConformance {
    /// A check a storage did not pass: which one, what went wrong, and what to fix.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The check that failed.
        public let check: Check

        /// What went wrong, such as "read gave 3 bytes, not the 264 committed".
        public let problem: String

        /// The failure of `check`, for `problem`.
        public init(check: Check, problem: String) {
            self.check = check
            self.problem = problem
        }

        /// The check, what went wrong, and what to fix, as the test's issue says it.
        public var description: String {
            "StoreStorage conformance, \(check): \(problem). \(check.fix)"
        }
    }
}
