import Automaton

// A client file with 50 rules in the `|` / `=>` DSL, as an app would write them: it shows that
// a long rule table type-checks quickly (under a second). It imports only Automaton, so it can
// be type-checked on its own; scripts/dsl-typecheck.sh measures it.

/// Where a document editor is.
enum DocumentState: Hashable, Sendable, CaseIterable {
    case closed, opening, viewing, editing, saving, exporting, printing, readOnly, failed, closing
}

/// What the user and the editor's background work send.
enum DocumentInput: Hashable, Sendable, CaseIterable {
    case open, opened, openFailed
    case edit, type, undo, redo, done
    case save, saved, saveFailed
    case export, exported, exportFailed
    case print, printed
    case lock, unlock
    case retry, close, closed, reset
}

/// The editor's rules: first match wins.
enum DocumentEditorRules {
    static let load = Effect<DocumentInput>(id: "load") { _ in .opened }
    static let store = Effect<DocumentInput>(id: "store") { _ in .saved }
    static let render = Effect<DocumentInput>(id: "render") { _ in .exported }
    static let spool = Effect<DocumentInput> { _ in .printed }
    static let discard = Effect<DocumentInput>.send(.closed)
    static let stopAll = Effect<DocumentInput>.cancel("load", "store", "render")

    /// States with a document on screen.
    static let isOpen: @Sendable (DocumentState) -> Bool = { state in
        state != .closed && state != .opening && state != .closing
    }
    /// States in which background work runs.
    static let isBusy: @Sendable (DocumentState) -> Bool = { state in
        state == .saving || state == .exporting || state == .printing
    }
    /// Answers of background work.
    static let isAnswer: @Sendable (DocumentInput) -> Bool = { input in
        [.opened, .openFailed, .saved, .saveFailed, .exported, .exportFailed, .printed].contains(input)
    }
    /// Inputs that change the text.
    static let isEdit: @Sendable (DocumentInput) -> Bool = { input in
        input == .type || input == .undo || input == .redo
    }

    static func mappings() -> [EffectMapping<DocumentState, DocumentInput>] {
        // The table's columns are aligned by hand: the formatter leaves it alone.
        // swift-format-ignore
        [
            /*  input       | from state  => to state    | effect   */
            .reset          | .any        => .closed     | stopAll,
            .any            | .closing    => .closing,
            .closed         | .closing    => .closed     | .none,
            isAnswer        | .closed     => .closed,
            .open           | .closed     => .opening    | load,
            .opened         | .opening    => .viewing    | .none,
            .openFailed     | .opening    => .failed     | .none,
            .close          | .opening    => .closing    | discard,
            .retry          | .failed     => .opening    | load,
            .close          | .failed     => .closing    | discard,
            .edit           | .viewing    => .editing,
            .type           | .editing    => .editing,
            .undo           | .editing    => .editing,
            .redo           | .editing    => .editing,
            .done           | .editing    => .viewing,
            .save           | .editing    => .saving     | store,
            .save           | .viewing    => .saving     | store,
            .saved          | .saving     => .viewing    | .none,
            .saveFailed     | .saving     => .failed     | .none,
            .retry          | .saving     => .saving     | store,
            .export         | .viewing    => .exporting  | render,
            .export         | .editing    => .exporting  | render,
            .exported       | .exporting  => .viewing    | .none,
            .exportFailed   | .exporting  => .failed     | .none,
            .retry          | .exporting  => .exporting  | render,
            .print          | .viewing    => .printing   | spool,
            .print          | .readOnly   => .printing   | spool,
            .printed        | .printing   => .viewing    | .none,
            .lock           | .viewing    => .readOnly,
            .lock           | .editing    => .readOnly,
            .unlock         | .readOnly   => .viewing,
            .export         | .readOnly   => .exporting  | render,
            .edit           | .readOnly   => .readOnly,
            isEdit          | .readOnly   => .readOnly,
            .save           | .readOnly   => .readOnly,
            .edit           | isBusy      => .editing    | stopAll,
            isEdit          | isBusy      => .editing    | stopAll,
            .close          | isBusy      => .closing    | .merge(stopAll, discard),
            .close          | isOpen      => .closing    | discard,
            .open           | isOpen      => .opening    | .merge(discard, load),
            .lock           | isBusy      => .readOnly,
            .unlock         | .any        => .viewing,
            isAnswer        | .failed     => .failed,
            isAnswer        | isOpen      => .viewing,
            .retry          | .any        => .opening    | load,
            .open           | .failed     => .opening    | load,
            .done           | .any        => .viewing,
            .any            | .opening    => .opening,
            isEdit          | .any        => .editing,
            .any            | .any        => .closed,
        ]
    }
}
