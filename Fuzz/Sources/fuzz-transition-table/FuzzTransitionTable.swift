import Automaton
import FuzzSupport

// Input: `names 0xFF edges`. The names (NUL-separated UTF-8) are what states and events print
// as, so diagrams get arbitrary text; without 0xFF the input is all edges and names are
// numbers. Each 3 bytes of edges are one edge (from, to, by); every byte of the edges section
// is also an event to replay. 16 states and 8 kinds of event keep the graphs dense.

/// A state: a small number, printed as one of the input's names.
struct FuzzState: Hashable, Sendable, CustomStringConvertible {
    let id: UInt8
    let name: String
    init(_ byte: UInt8, names: [String]) {
        id = byte % 16
        name = names.isEmpty ? "s\(id)" : names[Int(id) % names.count]
    }
    var description: String { name }
}

/// A kind of event, printed as one of the input's names.
struct FuzzKind: Hashable, Sendable, CustomStringConvertible {
    let id: UInt8
    let name: String
    init(_ byte: UInt8, names: [String]) {
        id = byte % 8
        name = names.isEmpty ? "e\(id)" : names[(Int(id) + 1) % names.count]
    }
    var description: String { name }
}

/// An event: a kind with a payload the table must ignore.
struct FuzzEvent: TransitionEvent, CustomStringConvertible {
    let kind: FuzzKind
    let payload: UInt8
    var description: String { "\(kind)(\(payload))" }
}

@main
enum FuzzTransitionTable {
    static func main() { runLibFuzzer(fuzzTransitionTable) }
}

/// libFuzzer's test function: also named so for libFuzzer's own `main`, which the linker keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransitionTable(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let names: [String]
    let edgeBytes: [UInt8]
    if let separator = bytes.firstIndex(of: 0xFF) {
        names = FuzzInput.strings(UnsafeRawBufferPointer(rebasing: bytes[..<separator]))
        edgeBytes = Array(bytes[(separator + 1)...])
    } else {
        names = []
        edgeBytes = Array(bytes)
    }
    let edges = stride(from: 0, to: edgeBytes.count - 2, by: 3).map { index in
        Transition(
            from: FuzzState(edgeBytes[index], names: names),
            to: FuzzState(edgeBytes[index + 1], names: names),
            by: FuzzKind(edgeBytes[index + 2], names: names))
    }
    let events = edgeBytes.map { FuzzEvent(kind: FuzzKind($0 >> 3, names: names), payload: $0) }
    let allStates = (0..<16).map { FuzzState(UInt8($0), names: names) }
    let allKinds = (0..<8).map { FuzzKind(UInt8($0), names: names) }
    let initial = edges.first?.from ?? allStates[0]
    let finals = allStates.filter { $0.id % 5 == 4 }
    check(edges: edges, events: events, initial: initial, finals: finals, allStates: allStates, allKinds: allKinds, names: names)
    return 0
}

private func check(
    edges: [Transition<FuzzState, FuzzKind>], events: [FuzzEvent], initial: FuzzState, finals: [FuzzState],
    allStates: [FuzzState], allKinds: [FuzzKind], names: [String]
) {
    let analysis = TransitionAnalysis(transitions: edges, initial: initial, finalStates: Set(finals))
    let full = TransitionAnalysis(
        transitions: edges, initial: initial, finalStates: Set(finals), states: allStates, kinds: allKinds)
    _ = (analysis.isClean, full.isClean, full.unhandledPairs.map(\.description))

    let table: TransitionTable<FuzzState, FuzzEvent>
    do {
        table = try TransitionTable(edges)
    } catch {
        _ = error.description
        precondition(!analysis.duplicateEdges.isEmpty, "the table refused edges the analysis found no duplicate in")
        return
    }
    precondition(analysis.duplicateEdges.isEmpty, "the table accepted duplicate edges")
    for edge in edges {
        precondition(table.transition(from: edge.from, byKind: edge.by) == edge.to, "edge \(edge) is not in the table")
    }
    precondition(Set(table.states).count == table.states.count, "a state is listed twice")
    precondition(
        allStates.reduce(0) { $0 + table.transitions(from: $1).count } == edges.count,
        "the edges leaving each state do not add up to the table")

    // Replay, through the table and through an automaton: the same path.
    let replay = table.replay(events, from: initial)
    precondition(replay.path.count == replay.replies.filter(\.isSuccess).count + 1, "the replay's path has the wrong length")
    precondition(replay.path.last == replay.state || replay.rejected != nil, "the replay ended off its path")
    _ = replay.replies.map(\.description)
    var automaton = FiniteAutomaton(initial: initial, table: table)
    for event in events {
        if !automaton.send(event).isSuccess { break }
    }
    precondition(automaton.state == replay.state, "the automaton and the replay disagree")

    // Shortest paths lead where they say, and exist exactly for the reachable states.
    let unreachable = Set(analysis.unreachableStates)
    for goal in allStates {
        let path = table.shortestPath(from: initial, to: goal)
        if let path {
            let walked = table.replay(path.map { FuzzEvent(kind: $0, payload: 0) }, from: initial)
            precondition(walked.isComplete && walked.state == goal, "the shortest path to \(goal) does not lead there")
            precondition(!unreachable.contains(goal), "\(goal) has a path but is listed as unreachable")
        } else {
            precondition(
                !table.states.contains(goal) || unreachable.contains(goal),
                "\(goal) has no path but is not listed as unreachable")
        }
    }

    // Exports: one line per edge, whatever the names hold.
    let mermaid = table.mermaid(initial: initial, finalStates: finals)
    precondition(lineCount(mermaid) == 2 + edges.count + finals.count, "a Mermaid line broke:\n\(mermaid)")
    let dot = table.dot(name: names.first ?? "Flow", initial: initial, finalStates: finals)
    precondition(lineCount(dot) == 5 + edges.count + finals.count, "a DOT line broke:\n\(dot)")
}

private func lineCount(_ text: String) -> Int {
    text.utf8.count { $0 == UInt8(ascii: "\n") }
}
