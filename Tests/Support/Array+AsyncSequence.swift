import Testing

extension Array where Element: Sendable {
    /// Collects an async sequence that ends.
    ///
    /// A sequence that has not ended within `bound` (``waitingBound`` by default) is cancelled:
    /// the elements so far are returned and an issue is recorded, so a test never waits for it
    /// forever.
    package init<S: AsyncSequence & Sendable>(
        _ sequence: S, within bound: Duration = waitingBound, sourceLocation: SourceLocation = #_sourceLocation
    ) async where S.Element == Element, S.Failure == Never {
        let (elements, ended) = await collect(sequence, within: bound) { _ in false }
        if !ended {
            Issue.record(
                "the sequence did not end within \(bound); collected so far: \(elements)", sourceLocation: sourceLocation)
        }
        self = elements
    }
}

/// The elements of `sequence` until it ends, `isComplete` holds of those collected, or `bound`
/// passes (then the iteration is cancelled); and whether it ended or completed in time.
package func collect<S: AsyncSequence & Sendable>(
    _ sequence: S, within bound: Duration, until isComplete: @escaping @Sendable ([S.Element]) -> Bool
) async -> (elements: [S.Element], ended: Bool) where S.Element: Sendable, S.Failure == Never {
    await withTaskGroup(of: ([S.Element], Bool)?.self) { group in
        group.addTask {
            var elements: [S.Element] = []
            for await element in sequence {
                elements.append(element)
                if isComplete(elements) { return (elements, true) }
            }
            return (elements, !Task.isCancelled)
        }
        group.addTask {
            try? await Task.sleep(for: bound)
            return nil
        }
        var result: ([S.Element], Bool)?
        while result == nil, let next = await group.next() {
            result = next
            group.cancelAll()  // the other one: the timer, or the iteration (which ends on cancellation)
        }
        return result.map { (elements: $0.0, ended: $0.1) } ?? (elements: [], ended: false)
    }
}
