extension TransitionTable {
    /// The shortest list of event kinds that leads from `start` to `goal`, or `nil` if `goal`
    /// cannot be reached. Ties go to the edge listed first.
    ///
    /// ```swift
    /// let path = try RegistrationFlow.makeTable().shortestPath(from: .root, to: .home)
    /// // [.showRegisterRoot, .loginAndShowHome]
    /// ```
    ///
    /// The path is `[]` when `start == goal`.
    public func shortestPath(from start: State, to goal: State) -> [Event.Kind]? {
        if start == goal { return [] }
        var cameFrom: [State: (previous: State, kind: Event.Kind)] = [:]
        var visited: Set<State> = [start]
        var frontier = [start]
        var index = 0
        while index < frontier.count {
            let state = frontier[index]
            index += 1
            for edge in transitions(from: state) where visited.insert(edge.to).inserted {
                cameFrom[edge.to] = (state, edge.by)
                if edge.to == goal { return Self.path(to: goal, from: start, cameFrom: cameFrom) }
                frontier.append(edge.to)
            }
        }
        return nil
    }

    private static func path(
        to goal: State,
        from start: State,
        cameFrom: [State: (previous: State, kind: Event.Kind)]
    ) -> [Event.Kind] {
        var kinds: [Event.Kind] = []
        var state = goal
        while state != start, let step = cameFrom[state] {
            kinds.append(step.kind)
            state = step.previous
        }
        return kinds.reversed()
    }
}
