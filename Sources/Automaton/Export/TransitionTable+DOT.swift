extension TransitionTable {
    /// The table as a Graphviz DOT digraph, one edge per line, in table order.
    ///
    /// ```swift
    /// try LoginFlow.makeTable().dot(name: "Login", initial: .loggedOut)
    ///     .write(toFile: "login.dot", atomically: true, encoding: .utf8)
    /// // dot -Tsvg login.dot > login.svg
    /// ```
    ///
    /// - Parameters:
    ///   - name: The graph's name.
    ///   - initial: Drawn with an arrow from a point, when given.
    ///   - finalStates: Drawn as double circles.
    public func dot(name: String = "Flow", initial: State? = nil, finalStates: [State] = []) -> String {
        var lines = ["digraph \(DiagramName.quoted(name)) {", "    rankdir=LR;"]
        if let initial {
            lines.append("    \"__start\" [shape=point];")
            lines.append("    \"__start\" -> \(DiagramName.quoted(initial));")
        }
        for state in finalStates {
            lines.append("    \(DiagramName.quoted(state)) [shape=doublecircle];")
        }
        for edge in transitions {
            lines.append(
                "    \(DiagramName.quoted(edge.from)) -> \(DiagramName.quoted(edge.to)) [label=\(DiagramName.quoted(edge.by))];"
            )
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
