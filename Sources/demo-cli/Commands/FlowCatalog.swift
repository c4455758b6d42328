import AutomatonExamples

/// The two example flows of AutomatonExamples, by name, as `demo-cli flow` shows them.
enum FlowCatalog {
    /// The flow a route belongs to, or `nil` for an unknown route.
    static func flow(ofRoute route: String) -> DemoFlow? {
        if RegistrationFlow.routes[route] != nil { return .registration }
        if LoginFlow.routes[route] != nil { return .login }
        return nil
    }

    /// The sorted route names of `flow`.
    static func routeNames(of flow: DemoFlow) -> [String] {
        switch flow {
        case .registration: RegistrationFlow.routeNames
        case .login: LoginFlow.routes.keys.sorted()
        }
    }

    /// `demo-cli flow`: every route, grouped by flow; `demo-cli flow login`: that flow's only.
    static func listing(of flows: [DemoFlow] = DemoFlow.allCases) -> [String] {
        var lines: [String] = []
        for flow in flows {
            let title = flow == .registration ? "RegistrationFlow (sign-up and log-in screens)" : "LoginFlow (logging in and out)"
            lines.append("\(flow.rawValue) routes — \(title):")
            lines += routeNames(of: flow).map { "  \($0)" }
        }
        lines.append("Replay one with 'demo-cli flow ROUTE'; draw a flow with 'demo-cli flow registration|login --mermaid'.")
        return lines
    }

    /// The Mermaid diagram of `flow`.
    static func mermaid(_ flow: DemoFlow) throws -> String {
        switch flow {
        case .registration: try RegistrationFlow.mermaid()
        case .login: try LoginFlow.mermaid()
        }
    }

    /// Replays `route` through its flow's table: one line per event, then where it ended.
    ///
    /// - Returns: The lines, and whether every event was accepted.
    static func replay(_ route: String) throws -> (lines: [String], complete: Bool) {
        if let events = RegistrationFlow.routes[route] {
            let replay = try RegistrationFlow.makeTable().replay(events, from: RegistrationFlow.initialState)
            var lines = ["Route \(route) (RegistrationFlow), starting at \(RegistrationFlow.initialState):"]
            for (index, reply) in replay.replies.enumerated() {
                let screen = reply.isSuccess ? "  → \(RegistrationFlow.screen(for: reply.input))" : ""
                lines.append("  \(index + 1). \(reply)\(screen)")
            }
            lines.append(summary(complete: replay.isComplete, state: "\(replay.state)"))
            return (lines, replay.isComplete)
        }
        if let inputs = LoginFlow.routes[route] {
            let replay = try LoginFlow.makeTable().replay(inputs, from: .loggedOut)
            var lines = ["Route \(route) (LoginFlow), starting at \(LoginState.loggedOut):"]
            for (index, reply) in replay.replies.enumerated() {
                lines.append("  \(index + 1). \(reply)")
            }
            lines.append(summary(complete: replay.isComplete, state: "\(replay.state)"))
            return (lines, replay.isComplete)
        }
        return (["unknown route \(route)"], false)
    }

    private static func summary(complete: Bool, state: String) -> String {
        complete ? "Ended at \(state)." : "Stopped at \(state): the flow rejected the event."
    }
}
