import Foundation
import SingletonStoresTestSupport
import Testing

/// Output that cannot be written — standard output full, closed, or a pipe nobody reads;
/// standard error closed — never crashes demo-cli after its work is done: the work stands, the
/// exit status says what happened (74 for lost output), and a script that checks it does not
/// buy twice.
@Suite("Output failures through the binary", .hangLimit, .ownThread)
struct OutputFailureBinaryTests {
    /// The purchase is recorded once, however its output went.
    private func expectOnePurchase(_ binary: DemoBinary, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let show = try binary.run(["purchase", "show"])
        #expect(show.lines.first == "boost items: 1", "\(show)", sourceLocation: sourceLocation)
        #expect(show.lines.last == "ledger entries: 1", "\(show)", sourceLocation: sourceLocation)
    }

    private func expectOutputFailure(
        _ result: DemoBinary.Result, reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.reason == .exit && result.status == 74, "\(result)", sourceLocation: sourceLocation)
        #expect(
            result.errorLines == [
                "demo-cli: could not write to standard output: \(reason); the command itself completed, do not run it again."
            ], "\(result)", sourceLocation: sourceLocation)
    }

    @Test func aFullStandardOutputEnds74AndThePurchaseStands() throws {
        try withDemoBinary { binary in
            let result = try binary.runInShell(#"exec "$@" >/dev/full"#, ["purchase", "buy"])
            expectOutputFailure(result, reason: "No space left on device")
            try expectOnePurchase(binary)
        }
    }

    @Test func aClosedStandardOutputEnds74AndThePurchaseStands() throws {
        try withDemoBinary { binary in
            let result = try binary.runInShell(#"exec "$@" >&-"#, ["purchase", "buy"])
            expectOutputFailure(result, reason: "Bad file descriptor")
            try expectOnePurchase(binary)
            // Nothing the command printed went into the stores' files instead.
            let names = try FileManager.default.contentsOfDirectory(atPath: binary.dataFolder.path(percentEncoded: false))
            for name in names {
                let text = try String(contentsOf: binary.dataFolder.appending(path: name), encoding: .utf8)
                #expect(!text.contains("You own"), "\(name): \(text)")
            }
        }
    }

    @Test func aPipeNobodyReadsWithSIGPIPEIgnoredEnds74AndThePurchaseStands() throws {
        try withDemoBinary { binary in
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()  // the reader went away before the output came
            let result = try binary.runInShell(
                #"trap '' PIPE; exec "$@""#, ["purchase", "buy"], standardOutput: pipe.fileHandleForWriting)
            try pipe.fileHandleForWriting.close()
            expectOutputFailure(result, reason: "Broken pipe")
            try expectOnePurchase(binary)
        }
    }

    @Test func aClosedStandardErrorWhileAWarningPrintsStillSucceeds() throws {
        try withDemoBinary { binary in
            // A damaged document makes every run print a warning on standard error.
            try Data("{\"formatVersion\": 2, \"val".utf8).write(to: binary.dataFolder.appending(path: "profile.json"))
            let result = try binary.runInShell(#"exec "$@" 2>&-"#, ["purchase", "buy"])
            #expect(result.reason == .exit && result.status == 0, "\(result)")
            #expect(result.lines == ["Bought 1 boost item. You own 1 boost item; no premium."])
            try expectOnePurchase(binary)
        }
    }

    @Test func aLiveViewOnAPipeNobodyReadsEnds() throws {
        try withDemoBinary { binary in
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            // `boost watch` runs until Ctrl-C; a boost counting down gives it something to
            // print each second, and the first failed write ends it.
            _ = try binary.run(["boost", "start", "--seconds", "600"])
            let result = try binary.runInShell(
                #"trap '' PIPE; exec "$@""#, ["boost", "watch", "--speed", "50"], standardOutput: pipe.fileHandleForWriting)
            try pipe.fileHandleForWriting.close()
            expectOutputFailure(result, reason: "Broken pipe")
        }
    }

    /// Views that end on their own end early too: a long boost watched to its end, and a
    /// long showcase, stop at the first failed write.
    @Test(arguments: [["boost", "watch", "--until-end"], ["--seconds", "3600"], ["--seconds", "3600", "--naive"]])
    func aViewThatWouldRunLongEndsWhenNobodyReadsIt(_ arguments: [String]) throws {
        try withDemoBinary { binary in
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            _ = try binary.run(["boost", "start", "--seconds", "3600"])
            let started = ContinuousClock.now
            let result = try binary.runInShell(#"trap '' PIPE; exec "$@""#, arguments, standardOutput: pipe.fileHandleForWriting)
            try pipe.fileHandleForWriting.close()
            #expect(result.reason == .exit && result.status == 74, "\(result)")
            #expect(ContinuousClock.now - started < .seconds(60), "it did not run until the boost's end")
        }
    }
}

/// A change that could not be saved is never reported as done.
@Suite(
    "Failed saves through the binary", .hangLimit, .ownThread,
    .disabled(if: isUnderThreadSanitizer, "the thread sanitizer's runtime dies without file writes (ulimit -f 0)"))
struct FailedSaveBinaryTests {
    /// Every file write fails with "File too large" (a full disk, as far as the program can
    /// tell), even for root, who may write anywhere.
    static let noFileWrites = #"trap '' XFSZ; ulimit -f 0; exec "$@""#

    @Test func aStopThatWasNotSavedFailsAndTheBoostKeepsRunning() throws {
        try withDemoBinary { binary in
            _ = try binary.run(["boost", "start", "--seconds", "600"])
            let stop = try binary.runInShell(Self.noFileWrites, ["boost", "stop"])
            #expect(stop.reason == .exit && stop.status == 1, "\(stop)")
            #expect(stop.standardOutput.isEmpty)
            #expect(stop.errorLines.count == 1)
            #expect(stop.standardError.contains("boost.json could not be written: File too large"))
            let status = try binary.run(["boost", "status"])
            #expect(status.lines.first?.hasPrefix("Boost: 09:") == true || status.lines.first?.hasPrefix("Boost: 10:00") == true)
        }
    }

    @Test func aStartThatWasNotSavedFailsAndNoBoostRuns() throws {
        try withDemoBinary { binary in
            let start = try binary.runInShell(Self.noFileWrites, ["boost", "start", "--seconds", "600"])
            #expect(start.reason == .exit && start.status == 1, "\(start)")
            #expect(start.standardOutput.isEmpty)
            #expect(start.errorLines.count == 1)
            #expect(start.standardError.contains("boost.json could not be written: File too large"))
            #expect(try binary.run(["boost", "status"]).lines == ["No boost is running. 0 boost items owned."])
        }
    }
}
