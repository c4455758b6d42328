/// The process exit statuses of the demo CLI.
enum ExitStatus: Int32, Sendable {
    /// Done.
    case success = 0
    /// The operation was refused or failed (no boost items, a storage error…): a message says why.
    case failure = 1
    /// The command line was wrong (`EX_USAGE` from sysexits.h).
    case usage = 64
    /// Interrupted by Ctrl-C (128 + SIGINT).
    case interrupted = 130
}
