/// `demo-cli flow [ROUTE|registration|login] [--mermaid]`: the example flows of AutomatonExamples.
enum FlowCommand {
    static func run(_ request: FlowRequest, context: CommandContext) -> ExitStatus {
        do {
            switch request {
            case .list:
                for line in FlowCatalog.listing() { context.console.print(line) }
                return .success
            case .routes(let flow):
                for line in FlowCatalog.listing(of: [flow]) { context.console.print(line) }
                return .success
            case .mermaid(let flow):
                let diagram = try FlowCatalog.mermaid(flow)
                context.console.print(diagram.hasSuffix("\n") ? String(diagram.dropLast()) : diagram)
                return .success
            case .replay(let route):
                let (lines, complete) = try FlowCatalog.replay(route)
                for line in lines { context.console.print(line) }
                return complete ? .success : .failure
            }
        } catch {
            return context.fail("the flow's table is invalid: \(error)")
        }
    }
}
