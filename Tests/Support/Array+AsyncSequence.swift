extension Array {
    /// Collects an async sequence that ends.
    package init<S: AsyncSequence>(_ sequence: S) async where S.Element == Element, S.Failure == Never {
        self = []
        for await element in sequence { append(element) }
    }
}
