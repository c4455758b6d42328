/// Why ``CountdownStore/startIfIdle(duration:)`` did not start a countdown; then nothing
/// changed, in this process or on disk.
public enum CountdownError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A countdown is running or paused, with this many seconds shown; wait for it to end.
    case alreadyRunning(remainingSeconds: Int)
    /// The duration was zero or less; a countdown needs one above zero.
    case invalidDuration(Duration)
    /// The decision could not be read or saved (the folder is read-only, the disk is full…).
    case storage(StorageError)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .alreadyRunning(let seconds):
            "A countdown is already running (\(seconds) s left). Start the next one after it ends."
        case .invalidDuration(let duration):
            "A countdown needs a duration above zero; \(duration) was given."
        case .storage(let error):
            "The countdown did not start: \(error.errorDescription ?? "\(error)")"
        }
    }
}
