#!/usr/bin/env python3
"""Writes Tests/SingletonStoresTestingTests/Traits/TraitIsolationTests.swift: 200 tests, each with
its own `.stores` trait value. Run from the repository root."""
import pathlib

COUNT = 200
lines = ['''// Generated: 200 tests, each with its own `.stores` trait value, run in parallel (Swift
// Testing's default). Each checks that it sees only its own value — at entry, across suspension
// points, and in child tasks. Regenerate with scripts/generate-trait-isolation-tests.py.
import SingletonStoresTestSupport
import SingletonStoresTesting
import Testing

@Suite struct TraitIsolationTests {''']
for i in range(COUNT):
    lines.append(f'    @Test(.stores {{ $0.counter = CounterStub(count: {i}) }}) func isolated{i:03d}() async {{ await seesOnly({i}) }}')
lines.append('''}

/// Checks, across many suspension points, that the current counter is the test's own.
private func seesOnly(_ value: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
    for _ in 0..<20 {
        #expect(StoreValues.current.counter.count == value, sourceLocation: sourceLocation)
        await Task.yield()
    }
    let fromChild = await Task { StoreValues.current.counter.count }.value
    #expect(fromChild == value, sourceLocation: sourceLocation)
}
''')
path = pathlib.Path('Tests/SingletonStoresTestingTests/Traits/TraitIsolationTests.swift')
path.write_text('\n'.join(lines))
