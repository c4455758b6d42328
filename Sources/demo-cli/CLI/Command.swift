import Stores

/// What the user asked for, fully typed: the parser's output, the handlers' input.
enum Command: Sendable, Equatable {
    /// The two-panel boost showcase (no command).
    case showcase(ShowcaseOptions)
    /// Help for the program (empty path), a group (`boost`) or a command (`boost start`).
    case help(path: [String])
    /// `--version`: the package's version.
    case version
    /// `data-dir`: prints the data folder's path.
    case dataDirectory
    /// `reset`: removes the stores' documents from the data folder; `confirmed` by `--yes`;
    /// purchases paid for and not yet credited removed too only with `--discard-uncredited`.
    case reset(confirmed: Bool, discardUncredited: Bool = false)
    /// `export`: prints every store's state as one JSON document, secrets redacted, and the
    /// user's own text (the nickname, every free text) too unless `includingPersonal` (`--include-personal`).
    case export(includingPersonal: Bool = false)

    /// Starts a boost of this many seconds and persists it.
    case boostStart(seconds: Int)
    /// Prints the persisted boost's time left.
    case boostStatus
    /// Spends a purchased boost item on a boost of this many seconds.
    case boostUse(seconds: Int)
    /// Ends the running boost.
    case boostStop
    /// Shows the persisted boost's countdown live, following other runs' changes, until Ctrl-C;
    /// with `untilEnd`, only until the boost ends (at once when none runs).
    case boostWatch(speed: Double, untilEnd: Bool = false)

    /// Prints the stored profile.
    case profileShow
    /// Prints the stored profile, then follows it live (other runs' changes) until Ctrl-C.
    case profileWatch
    /// Changes the stored profile: a gender (`.some(nil)` clears it) and/or a nickname.
    case profileSet(gender: Gender??, nickname: String?)

    /// Buys a product.
    case purchaseBuy(PurchaseProduct)
    /// Restores earlier purchases.
    case purchaseRestore
    /// Prints the purchase state.
    case purchaseShow
    /// Prints the purchase state, then follows it live (other runs' changes) until Ctrl-C.
    case purchaseWatch

    /// Prints a web page's URL; gender and target default to the stored ones.
    case link(WebViewLink, gender: Gender??, target: APITarget?)
    /// Prints the stored API target.
    case targetShow
    /// Stores a new API target.
    case targetSet(APITarget)

    /// Lists the routes, replays one, or prints a diagram.
    case flow(FlowRequest)
}

extension Command {
    /// Whether the command reads or writes the data folder (help and `flow` do not).
    var usesStores: Bool {
        switch self {
        case .help, .flow, .version, .dataDirectory: false
        default: true
        }
    }
}

/// The options of the showcase.
struct ShowcaseOptions: Sendable, Equatable {
    /// The boost's length in seconds.
    var seconds = 10
    /// How many times faster than real time the clock runs.
    var speed = 1.0
    /// Run the "before": each panel with its own timer.
    var naive = false
}

/// What `demo-cli flow` does.
enum FlowRequest: Sendable, Equatable {
    /// Lists every route of both flows.
    case list
    /// Lists the routes of one flow.
    case routes(DemoFlow)
    /// Replays the named route, printing each transition.
    case replay(route: String)
    /// Prints the Mermaid diagram of a flow.
    case mermaid(DemoFlow)
}

/// The two example flows of AutomatonExamples.
enum DemoFlow: String, Sendable, CaseIterable {
    /// `RegistrationFlow`: sign-up and log-in screens.
    case registration
    /// `LoginFlow`: logging in and out.
    case login
}

/// A whole command line: the command and the global options.
struct Invocation: Sendable, Equatable {
    /// The command.
    var command: Command
    /// The data folder given with `--data-dir`, if any.
    var dataDirectory: String?
    /// Whether `--log-changes` was given.
    var logsChanges = false
}
