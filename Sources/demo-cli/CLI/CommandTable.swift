import Stores

/// Every command of the CLI, in the order help lists them.
///
/// Each row names the command, its options, and how its parsed arguments become a typed
/// ``Command``; the parser and the help text are driven by this table alone.
enum CommandTable {
    /// The default boost for `boost start`: 15 minutes.
    static let defaultBoostSeconds = 15 * 60
    /// The default boost bought items give (`boost use`): 30 minutes.
    static let defaultItemSeconds = 30 * 60

    private static let seconds = OptionSpec.value("--seconds", "N", "The boost's length in whole seconds (1–86400).")
    private static let speed = OptionSpec.value(
        "--speed", "X", "Run the clock X times faster (0.001 ≤ X ≤ 1000; below 1 runs slower).")
    private static let watch = OptionSpec.flag(
        "--watch",
        "Keep following it: changes from other runs are shown as they happen (redrawn in place on a terminal; each changed line once when piped) until Ctrl-C, which exits 0."
    )

    static let commands: [CommandSpec] = [
        CommandSpec(
            path: [], arguments: "", argumentCount: 0...0,
            summary: "Show a boost counting down on two screens that read one shared store.",
            options: [
                .value("--seconds", "N", "The boost's length in whole seconds (1–86400; default 10)."),
                speed,
                .flag("--naive", "Run the \"before\": each screen with its own timer, so they disagree."),
            ]
        ) { arguments throws(UsageError) in
            .showcase(
                ShowcaseOptions(
                    seconds: try arguments.seconds("--seconds", default: 10),
                    speed: try arguments.speed(),
                    naive: arguments.has("--naive")))
        },
        CommandSpec(
            path: ["boost", "start"], arguments: "", argumentCount: 0...0,
            summary: "Start a boost (replacing a running one); it persists between runs.",
            options: [.value("--seconds", "N", "The boost's length in whole seconds (1–86400; default 900).")]
        ) { arguments throws(UsageError) in
            .boostStart(seconds: try arguments.seconds("--seconds", default: defaultBoostSeconds))
        },
        CommandSpec(
            path: ["boost", "status"], arguments: "", argumentCount: 0...0,
            summary: "Show the time left on the persisted boost.", options: []
        ) { _ throws(UsageError) in .boostStatus },
        CommandSpec(
            path: ["boost", "use"], arguments: "", argumentCount: 0...0,
            summary: "Spend a purchased boost item to start a boost.",
            options: [.value("--seconds", "N", "The boost's length in whole seconds (1–86400; default 1800).")]
        ) { arguments throws(UsageError) in
            .boostUse(seconds: try arguments.seconds("--seconds", default: defaultItemSeconds))
        },
        CommandSpec(
            path: ["boost", "stop"], arguments: "", argumentCount: 0...0,
            summary: "End the running boost.", options: []
        ) { _ throws(UsageError) in .boostStop },
        CommandSpec(
            path: ["boost", "watch"], arguments: "", argumentCount: 0...0,
            summary: "Follow the persisted boost live, as other runs start or stop it, until Ctrl-C (exits 0).",
            options: [
                speed,
                .flag("--until-end", "Exit when the boost ends instead (at once, saying so, when none runs)."),
            ]
        ) { arguments throws(UsageError) in
            .boostWatch(speed: try arguments.speed(), untilEnd: arguments.has("--until-end"))
        },
        CommandSpec(
            path: ["profile", "show"], arguments: "", argumentCount: 0...0,
            summary: "Show the stored profile (with --watch, follow it live).", options: [watch]
        ) { arguments throws(UsageError) in arguments.has("--watch") ? .profileWatch : .profileShow },
        CommandSpec(
            path: ["profile", "set"], arguments: "", argumentCount: 0...0,
            summary: "Change the stored profile.",
            options: [
                .value("--gender", "male|female|none", "The user's gender (none clears it; unset is read as none)."),
                .value("--nickname", "NAME", "The name shown to other users."),
            ]
        ) { arguments throws(UsageError) in
            let gender = try arguments.gender()
            let nickname = arguments.values["--nickname"]
            guard gender != nil || nickname != nil else {
                throw UsageError("profile set needs --gender or --nickname", command: arguments.command)
            }
            return .profileSet(gender: gender, nickname: nickname)
        },
        CommandSpec(
            path: ["purchase", "buy"], arguments: "", argumentCount: 0...0,
            summary: "Buy boost items (default 1) or days of premium.",
            options: [
                .value("--items", "N", "Buy N boost items (1–1000)."),
                .value("--premium-days", "N", "Buy N days of premium (1–3650)."),
            ]
        ) { arguments throws(UsageError) in
            switch (arguments.values["--items"], arguments.values["--premium-days"]) {
            case (_?, _?):
                throw UsageError("give either --items or --premium-days, not both", command: arguments.command)
            case (nil, _?):
                return .purchaseBuy(
                    .premium(
                        days: try arguments.positiveInteger(
                            "--premium-days", default: 1, maximum: 3650, unit: "days")))
            default:
                return .purchaseBuy(
                    .boostItems(
                        try arguments.positiveInteger(
                            "--items", default: 1, maximum: 1000, unit: "items")))
            }
        },
        CommandSpec(
            path: ["purchase", "restore"], arguments: "", argumentCount: 0...0,
            summary: "Restore earlier purchases.", options: []
        ) { _ throws(UsageError) in .purchaseRestore },
        CommandSpec(
            path: ["purchase", "show"], arguments: "", argumentCount: 0...0,
            summary: "Show boost items, premium and the purchase flow (with --watch, follow them live).",
            options: [watch]
        ) { arguments throws(UsageError) in arguments.has("--watch") ? .purchaseWatch : .purchaseShow },
        CommandSpec(
            path: ["link"], arguments: "help|terms|privacy", argumentCount: 1...1,
            summary: "Print a web page's URL for the stored (or given) gender and API target.",
            options: [
                .value("--gender", "male|female|none", "Use this gender instead of the stored profile's."),
                .value("--target", "production|dev01|dev02", "Use this API target instead of the stored one."),
            ]
        ) { arguments throws(UsageError) in
            let name = arguments.arguments[0]
            guard let link = WebViewLink.allCases.first(where: { $0.description == name.lowercased() }) else {
                let names = WebViewLink.allCases.map(\.description).joined(separator: ", ")
                throw UsageError("unknown link '\(name)'; use one of \(names)", command: arguments.command)
            }
            return .link(link, gender: try arguments.gender(), target: try arguments.target(arguments.values["--target"]))
        },
        CommandSpec(
            path: ["target", "show"], arguments: "", argumentCount: 0...0,
            summary: "Show the stored API target.", options: []
        ) { _ throws(UsageError) in .targetShow },
        CommandSpec(
            path: ["target", "set"], arguments: "production|dev01|dev02", argumentCount: 1...1,
            summary: "Store the API target links use.", options: []
        ) { arguments throws(UsageError) in
            .targetSet(try arguments.target(arguments.arguments[0]))
        },
        CommandSpec(
            path: ["flow"], arguments: "[ROUTE|registration|login]", argumentCount: 0...1,
            summary: "List the screen-flow routes (of one flow, if named), replay one, or print a flow's Mermaid diagram.",
            options: [.flag("--mermaid", "Print the flow's Mermaid state diagram (of the route's flow, if a route is given).")]
        ) { arguments throws(UsageError) in
            try flowRequest(arguments)
        },
        CommandSpec(
            path: ["data-dir"], arguments: "", argumentCount: 0...0,
            summary: "Print the data folder's path: where the stores' files are kept.", options: []
        ) { _ throws(UsageError) in .dataDirectory },
        CommandSpec(
            path: ["reset"], arguments: "", argumentCount: 0...0,
            summary: "Remove the stores' saved files (boost, profile, purchases, API target) from the data folder.",
            options: [
                .flag(
                    "--yes",
                    "Do not ask first. Needed when standard input is not a terminal; without it, reset asks on a terminal and refuses elsewhere."
                ),
                .flag(
                    "--discard-uncredited",
                    "Also remove purchases paid for but not yet credited (kept in receipts.json, and credited at the next run, without it)."
                ),
            ]
        ) { arguments throws(UsageError) in
            .reset(confirmed: arguments.has("--yes"), discardUncredited: arguments.has("--discard-uncredited"))
        },
        CommandSpec(
            path: ["export"], arguments: "", argumentCount: 0...0,
            summary:
                "Print the state of every store as one JSON document, for a bug report (account ids, receipts and every free text, the nickname included, redacted).",
            options: [
                .flag(
                    "--include-personal",
                    "Include free text (the nickname, a rank the app does not know…) as it is, for a report that needs it; account ids and receipts stay redacted."
                )
            ]
        ) { arguments throws(UsageError) in .export(includingPersonal: arguments.has("--include-personal")) },
    ]

    /// The command groups and what they hold, for `demo-cli boost` and help.
    static var groups: [String] {
        var seen: [String] = []
        for spec in commands where spec.path.count > 1 && !seen.contains(spec.path[0]) {
            seen.append(spec.path[0])
        }
        return seen
    }

    /// The subcommands of `group`, e.g. `start, status, use` for `boost`.
    static func subcommands(of group: String) -> [CommandSpec] {
        commands.filter { $0.path.count > 1 && $0.path[0] == group }
    }

    /// The command at exactly `path`.
    static func command(at path: [String]) -> CommandSpec? {
        commands.first { $0.path == path }
    }

    private static func flowRequest(_ arguments: ParsedArguments) throws(UsageError) -> Command {
        guard let name = arguments.arguments.first else {
            return .flow(arguments.has("--mermaid") ? .mermaid(.registration) : .list)
        }
        if let flow = DemoFlow(rawValue: name) {
            return .flow(arguments.has("--mermaid") ? .mermaid(flow) : .routes(flow))
        }
        guard let flow = FlowCatalog.flow(ofRoute: name) else {
            throw UsageError("unknown route '\(name)'; run 'demo-cli flow' to list the routes", command: arguments.command)
        }
        return .flow(arguments.has("--mermaid") ? .mermaid(flow) : .replay(route: name))
    }
}
