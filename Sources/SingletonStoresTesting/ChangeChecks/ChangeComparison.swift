/// What `expectChanges` found: the expected and recorded changes and how they differ.
struct ChangeComparison {
    /// One way the recorded changes differ from the expected ones.
    enum Failure: Equatable {
        /// Changes were recorded that the test did not expect.
        case unexpected([RecordedChange])
        /// Expected changes were not recorded.
        case missing([RecordedChange])
        /// The expected changes all happened, but in another order.
        case reordered

        /// The kind's own sentence, for ``message``.
        var headline: String {
            switch self {
            case .unexpected(let changes):
                "\(changes.count == 1 ? "A change" : "\(changes.count) changes") happened that the test did not expect:"
                    + ChangeComparison.lines(changes)
            case .missing(let changes):
                "\(changes.count == 1 ? "An expected change" : "\(changes.count) expected changes") did not happen:"
                    + ChangeComparison.lines(changes)
            case .reordered:
                "The expected changes happened, but in another order."
            }
        }
    }

    let expected: [RecordedChange]
    let recorded: [RecordedChange]
    let failures: [Failure]

    init(expected: [RecordedChange], recorded: [RecordedChange], exhaustivity: ChangeExhaustivity) {
        self.expected = expected
        self.recorded = recorded
        let missing = Self.subtracting(recorded, from: expected)
        switch exhaustivity {
        case .exhaustive:
            let unexpected = Self.subtracting(expected, from: recorded)
            var failures: [Failure] = []
            if !unexpected.isEmpty { failures.append(.unexpected(unexpected)) }
            if !missing.isEmpty { failures.append(.missing(missing)) }
            if failures.isEmpty && recorded != expected { failures.append(.reordered) }
            self.failures = failures
        case .partial:
            if !missing.isEmpty {
                failures = [.missing(missing)]
            } else if !Self.isSubsequence(expected, of: recorded) {
                failures = [.reordered]
            } else {
                failures = []
            }
        }
    }

    /// Whether every expected change is in (so waiting longer cannot make a missing one appear).
    var isSatisfied: Bool {
        !failures.contains { if case .missing = $0 { true } else { false } }
    }

    /// The failure's full text: its headline, then both lists.
    func message(for failure: Failure) -> String {
        failure.headline + "\nExpected:" + Self.lines(expected) + "\nRecorded:" + Self.lines(recorded)
    }

    /// One indented line per change (`name: old → new`), or `(none)`.
    static func lines(_ changes: [RecordedChange]) -> String {
        changes.isEmpty ? "\n  (none)" : changes.map { "\n  \($0)" }.joined()
    }

    /// `changes` without one match for each element of `removed` (a multiset difference).
    private static func subtracting(_ removed: [RecordedChange], from changes: [RecordedChange]) -> [RecordedChange] {
        var rest = changes
        for change in removed {
            if let index = rest.firstIndex(of: change) { rest.remove(at: index) }
        }
        return rest
    }

    /// Whether `wanted` appears in `changes` in order, possibly with others between.
    private static func isSubsequence(_ wanted: [RecordedChange], of changes: [RecordedChange]) -> Bool {
        var remaining = wanted[...]
        for change in changes where change == remaining.first {
            remaining = remaining.dropFirst()
        }
        return remaining.isEmpty
    }
}
