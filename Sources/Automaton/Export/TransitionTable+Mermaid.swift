extension TransitionTable {
    /// The table as a Mermaid state diagram, one line per edge, in table order.
    ///
    /// ```swift
    /// print(try LoginFlow.makeTable().mermaid(initial: .loggedOut))
    /// // stateDiagram-v2
    /// //     [*] --> loggedOut
    /// //     loggedOut --> loggingIn : login
    /// //     ...
    /// ```
    ///
    /// State and event names come from `String(describing:)`; characters Mermaid does not allow
    /// in a state id become `_`.
    ///
    /// - Parameters:
    ///   - initial: Drawn with an arrow from the start marker, when given.
    ///   - finalStates: Drawn with an arrow to the end marker.
    public func mermaid(initial: State? = nil, finalStates: [State] = []) -> String {
        var lines = ["stateDiagram-v2"]
        if let initial {
            lines.append("    [*] --> \(DiagramName.identifier(initial))")
        }
        for edge in transitions {
            lines.append(
                "    \(DiagramName.identifier(edge.from)) --> \(DiagramName.identifier(edge.to)) : \(DiagramName.label(edge.by))"
            )
        }
        for state in finalStates {
            lines.append("    \(DiagramName.identifier(state)) --> [*]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
