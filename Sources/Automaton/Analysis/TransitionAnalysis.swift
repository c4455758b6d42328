/// A check of a flow's edges for the mistakes that slip into hand-written flows.
///
/// It lists states no event can reach, dead ends (states that are not final and have no way out),
/// duplicate edges (a second edge for the same state and event), and — when you pass every state
/// and every kind of event, as ``TransitionTable/analysis(initial:finalStates:)`` does for
/// `CaseIterable` types — every (state, event) pair that nothing handles:
///
/// ```swift
/// let report = TransitionAnalysis(
///     transitions: RegistrationFlow.transitions,
///     initial: .root,
///     finalStates: [.home],
///     states: RegistrationState.allCases,
///     kinds: RegistrationEvent.Kind.allCases
/// )
/// #expect(report.unreachableStates.isEmpty)
/// #expect(report.deadEnds.isEmpty)
/// ```
///
/// It works on a plain list of edges, so it can report duplicates that ``TransitionTable``
/// would refuse to build. Every list is in a stable order: the order of `states` and `kinds`, or
/// of first appearance in the edges.
public struct TransitionAnalysis<State: Hashable & Sendable, Kind: Hashable & Sendable>: Sendable {
    /// A state together with a kind of event.
    public struct Pair: Hashable, Sendable, CustomStringConvertible {
        /// The state.
        public let state: State
        /// The kind of event.
        public let kind: Kind

        /// Creates a pair.
        public init(state: State, kind: Kind) {
            self.state = state
            self.kind = kind
        }

        /// `(state, kind)`.
        public var description: String { "(\(state), \(kind))" }
    }

    /// States that cannot be reached from the initial state by any sequence of events.
    public let unreachableStates: [State]
    /// Reachable states that are not final and have no outgoing edge: the flow gets stuck there.
    public let deadEnds: [State]
    /// Edges whose (from, event) pair already appeared earlier in the list.
    public let duplicateEdges: [Transition<State, Kind>]
    /// Reachable, non-final states paired with every kind of event they do not handle. Empty
    /// when no `kinds` were given.
    public let unhandledPairs: [Pair]

    /// Whether the analysis found no unreachable state, dead end or duplicate edge.
    /// Unhandled pairs are listed for review and do not count: most flows ignore most events.
    public var isClean: Bool {
        unreachableStates.isEmpty && deadEnds.isEmpty && duplicateEdges.isEmpty
    }

    /// Analyses `transitions`.
    ///
    /// - Parameters:
    ///   - transitions: The edges, duplicates allowed.
    ///   - initial: The state the flow starts in.
    ///   - finalStates: States where the flow may legitimately stop.
    ///   - states: Every state of the flow; defaults to the states the edges mention. Pass all
    ///     of them to catch a state no edge mentions at all.
    ///   - kinds: Every kind of event; when given, ``unhandledPairs`` is filled in.
    public init(
        transitions: [Transition<State, Kind>],
        initial: State,
        finalStates: Set<State> = [],
        states: [State]? = nil,
        kinds: [Kind]? = nil
    ) {
        var seenPairs = Set<Pair>()
        var duplicates: [Transition<State, Kind>] = []
        var outgoing: [State: [Transition<State, Kind>]] = [:]
        var mentioned: [State] = [initial]
        var mentionedSet: Set<State> = [initial]
        for transition in transitions {
            if !seenPairs.insert(Pair(state: transition.from, kind: transition.by)).inserted {
                duplicates.append(transition)
            }
            outgoing[transition.from, default: []].append(transition)
            for state in [transition.from, transition.to] where mentionedSet.insert(state).inserted {
                mentioned.append(state)
            }
        }
        var allStates = states ?? mentioned
        for state in mentioned where !allStates.contains(state) {
            allStates.append(state)
        }

        let reachable = Self.reachableStates(from: initial, outgoing: outgoing)
        let live = allStates.filter { reachable.contains($0) && !finalStates.contains($0) }

        self.unreachableStates = allStates.filter { !reachable.contains($0) }
        self.deadEnds = live.filter { outgoing[$0, default: []].isEmpty }
        self.duplicateEdges = duplicates
        self.unhandledPairs = live.flatMap { state in
            (kinds ?? []).compactMap { kind in
                let pair = Pair(state: state, kind: kind)
                return seenPairs.contains(pair) ? nil : pair
            }
        }
    }

    private static func reachableStates(
        from initial: State,
        outgoing: [State: [Transition<State, Kind>]]
    ) -> Set<State> {
        var reachable: Set<State> = [initial]
        var frontier = [initial]
        while let state = frontier.popLast() {
            for edge in outgoing[state, default: []] where reachable.insert(edge.to).inserted {
                frontier.append(edge.to)
            }
        }
        return reachable
    }
}

extension TransitionAnalysis where State: CaseIterable, Kind: CaseIterable {
    /// Analyses `transitions` against every state and every kind of event.
    public init(transitions: [Transition<State, Kind>], initial: State, finalStates: Set<State> = []) {
        self.init(
            transitions: transitions,
            initial: initial,
            finalStates: finalStates,
            states: Array(State.allCases),
            kinds: Array(Kind.allCases)
        )
    }
}

extension TransitionTable {
    /// Analyses this table; see ``TransitionAnalysis``.
    public func analysis(
        initial: State,
        finalStates: Set<State> = [],
        states: [State]? = nil,
        kinds: [Event.Kind]? = nil
    ) -> TransitionAnalysis<State, Event.Kind> {
        TransitionAnalysis(
            transitions: transitions,
            initial: initial,
            finalStates: finalStates,
            states: states,
            kinds: kinds
        )
    }
}

extension TransitionTable where State: CaseIterable, Event.Kind: CaseIterable {
    /// Analyses this table against every state and every kind of event.
    public func analysis(initial: State, finalStates: Set<State> = []) -> TransitionAnalysis<State, Event.Kind> {
        TransitionAnalysis(transitions: transitions, initial: initial, finalStates: finalStates)
    }
}
