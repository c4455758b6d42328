/// The process exit statuses of the demo CLI.
enum ExitStatus: Int32, Sendable {
    /// Done.
    case success = 0
    /// The operation was refused or failed (no boost items, a storage error…): a message says why.
    /// Nothing was done: a purchase refused so was not charged (the ledger could never credit
    /// it: the message names the file to move away), an item refused so was not spent.
    case failure = 1
    /// `purchase buy`: the purchase was paid for and its receipt recorded, but it could not be
    /// credited yet (another process holds the purchases store, the disk is full): it is credited
    /// when the purchases store is free, at the next run. Do not buy again.
    case purchaseNotYetCredited = 3
    /// The change was made, and is what the app reads now, but the disk reported an error while
    /// it was being flushed: a power cut may bring back the value before it. A message says
    /// which file; run the command again (any save that succeeds) to make it durable.
    case notDurable = 4
    /// The command line was wrong (`EX_USAGE` from sysexits.h).
    case usage = 64
    /// The command's work was done (a purchase is recorded, a boost saved), but its output could
    /// not be written: standard output is closed, full, or a pipe nobody reads (`EX_IOERR` from
    /// sysexits.h). Do not retry the command; look at the state instead (`purchase show`).
    case outputFailed = 74
    /// A value a store was to save when the program exited could not be saved (another process
    /// held its store past the lock timeout, the disk was full…) and is lost; a message names
    /// the store (`EX_TEMPFAIL` from sysexits.h). The library sets it at exit, for a store whose
    /// writes are coalesced (`StoreWritePolicy.valuesLostExitStatus`).
    case valuesLost = 75
    /// Interrupted by Ctrl-C (128 + SIGINT).
    case interrupted = 130
}
