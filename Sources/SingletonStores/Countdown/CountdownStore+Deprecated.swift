extension CountdownStore {
    /// Starts a countdown of `duration` seconds, replacing any running one; a failed save is
    /// reported to `reportIssue`.
    @available(
        *, deprecated, renamed: "start(duration:)", message: "Use try start(duration: .seconds(n)); it throws a failed save."
    )
    public func startCountDown(duration: Int) {
        reportingFailure { () throws(StorageError) in try start(duration: .seconds(duration)) }
    }

    /// Starts a countdown of `duration` seconds, replacing any running one; throws a failed save.
    @available(*, deprecated, renamed: "start(duration:)", message: "Pass a Duration: start(duration: .seconds(n)).")
    public func start(duration: Int) throws(StorageError) {
        try start(duration: .seconds(duration))
    }

    /// Ends the running countdown now; a failed save is reported to `reportIssue`.
    @available(*, deprecated, renamed: "stop()", message: "Use try stop(); it throws a failed save.")
    public func stopCountDown() {
        reportingFailure { () throws(StorageError) in try stop() }
    }

    /// Adds `seconds` to the running countdown; a failed save is reported to `reportIssue`.
    @available(*, deprecated, renamed: "extend(by:)", message: "Use try extend(by: .seconds(n)); it throws a failed save.")
    public func extend(by seconds: Int) {
        reportingFailure { () throws(StorageError) in try extend(by: .seconds(seconds)) }
    }
}
