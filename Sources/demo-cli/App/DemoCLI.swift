import SingletonStoresLocking
import Foundation
import Synchronization
import Stores

/// The demo CLI: parses the command line, runs the command, returns the exit status.
///
/// `main.swift` only calls ``run(arguments:environment:console:)`` and exits with its result,
/// so everything here can be tested in-process.
enum DemoCLI {
    /// Runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: The arguments, without the program name.
    ///   - environment: The process environment (`NO_COLOR`, `SINGLETON_STORES_DATA_DIR`, `HOME`).
    ///   - console: Where output goes.
    ///   - launchVariants: The store variants the process was launched with, already applied
    ///     by ``LaunchVariants/prepare(arguments:environment:console:)``; none by default.
    /// - Returns: The exit status.
    static func run(
        arguments: [String], environment: [String: String], console: Console,
        launchVariants: StoreLaunchVariants = StoreLaunchVariants()
    ) async -> ExitStatus {
        let invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(arguments)
        } catch {
            console.printError(error.description)
            return .usage
        }
        if case .version = invocation.command {
            console.print("demo-cli \(PackageVersion.current) (SingletonStores)")
            return .success
        }
        if case .help(let path) = invocation.command {
            // Help never fails: a folder given as `~name` is left out (a command would refuse it).
            var folder: HelpText.DataFolder?
            do {
                let resolved = try DataFolderPath.resolve(option: invocation.dataDirectory, environment: environment)
                folder = DataFolderCommand.folder(
                    dataDirectory: resolved, option: invocation.dataDirectory, environment: environment)
            } catch {
                folder = nil
            }
            console.print(HelpText.page(for: path, width: console.width, dataFolder: folder))
            return .success
        }
        let dataDirectory: String?
        do {
            dataDirectory = try DataFolderPath.resolve(option: invocation.dataDirectory, environment: environment)
        } catch {
            console.printError(error.description)
            return .usage
        }
        let folder = DataFolderCommand.folder(
            dataDirectory: dataDirectory, option: invocation.dataDirectory, environment: environment)
        let context = CommandContext(
            console: console, dataDirectory: dataDirectory, launchVariants: launchVariants,
            logsChanges: invocation.logsChanges)
        if invocation.command.usesStores, let problem = DataFolderCheck.problem(dataDirectory: dataDirectory, console: console) {
            return context.fail(problem.description)
        }
        switch invocation.command {
        case .help, .version:
            return .success
        case .dataDirectory:
            return DataFolderCommand.printFolder(folder, context: context)
        case .reset(let confirmed, let discardUncredited):
            return DataFolderCommand.reset(
                confirmed: confirmed, discardUncredited: discardUncredited, folder: folder, context: context)
        case .showcase(let options):
            return await ShowcaseCommand.run(options, context: context)
        case .flow(let request):
            return FlowCommand.run(request, context: context)
        case .boostStart, .boostStatus, .boostUse, .boostStop, .boostWatch:
            return await BoostCommand.run(invocation.command, context: context)
        case .profileShow, .profileWatch, .profileSet:
            return await ProfileCommand.run(invocation.command, context: context)
        case .purchaseBuy, .purchaseRestore, .purchaseShow, .purchaseWatch:
            return await PurchaseCommand.run(invocation.command, context: context)
        case .link, .targetShow, .targetSet:
            return LinkCommand.run(invocation.command, context: context)
        case .export(let includingPersonal):
            return ExportCommand.run(includingPersonal: includingPersonal, context: context)
        }
    }
}

extension DemoCLI {
    /// The status to exit with once `status`'s command has run: ``ExitStatus/outputFailed`` when
    /// its output could not be written — with a message on standard error, if that one works —
    /// unless the command had failed already.
    static func finish(_ status: ExitStatus, console: Console) -> ExitStatus {
        // Done, but a save's flush failed (reported as a warning): not done as far as the disk knows.
        let status = status == .success && NotDurableWrites.occurred.load(ordering: .relaxed) ? .notDurable : status
        guard let failure = console.outputFailure() else { return status }
        let done = status == .success ? "; the command itself completed, do not run it again" : ""
        console.printError("demo-cli: could not write to standard output: \(failure.escapingControlCharacters)\(done).")
        return status == .success ? .outputFailed : status
    }
}

/// What every command handler gets.
struct CommandContext: Sendable {
    /// Where output goes.
    let console: Console
    /// The data folder from `--data-dir` or the environment, `~` expanded; `nil` for the
    /// per-user data folder.
    let dataDirectory: String?
    /// The store variants chosen at launch.
    var launchVariants = StoreLaunchVariants()
    /// Whether to print each change the stores commit (`--log-changes`).
    var logsChanges = false

    /// The store to show for `key`: the launch variant when one was chosen (the process's base
    /// store values hold it), else `store`, the data folder's.
    func shown<Key: ProductionStoreKey>(_ key: Key.Type, else store: @autoclosure () -> Key.Value) -> Key.Value {
        launchVariants.variant(for: key) == nil ? store() : StoreValues.current[key]
    }

    /// The stores, on a clock `speed` times faster than real time.
    func stores(speed: Double = 1) -> DemoStores {
        DemoStores(dataDirectory: dataDirectory, clock: ScaledClock(speed: speed), console: console, logsChanges: logsChanges)
    }

    /// Prints `message` as one error line, control characters escaped (it may quote stored
    /// text or file paths), and returns ``ExitStatus/failure``. A backslash is left as it is: the
    /// library's error messages escape what they quote already.
    func fail(_ message: String) -> ExitStatus {
        console.printError("demo-cli: \(message.escapingControlCharactersLeavingBackslashes)")
        return .failure
    }

    /// Prints `error` as ``fail(_:)-(String)`` does and returns ``ExitStatus/failure`` — or, for
    /// a change that was made but not flushed to the disk (a ``StorageError/notDurable(file:reason:)``
    /// inside `error`), ``ExitStatus/notDurable``: never "nothing was done" for a change in place.
    func fail(_ error: some Error & CustomStringConvertible) -> ExitStatus {
        let status = fail(error.description)
        return StorageError.found(in: error)?.isNotDurable == true ? .notDurable : status
    }
}

extension StorageError {
    /// The storage error `error` is or carries (as an associated value, at any depth), if any.
    static func found(in error: Any, depth: Int = 4) -> StorageError? {
        if let storage = error as? StorageError { return storage }
        guard depth > 0 else { return nil }
        for child in Mirror(reflecting: error).children {
            if let found = found(in: child.value, depth: depth - 1) { return found }
        }
        return nil
    }

    /// Whether the change was made, its flush failed.
    var isNotDurable: Bool {
        if case .notDurable = self { true } else { false }
    }
}

/// Whether a save of this run took effect but could not be flushed to the disk (a store reported
/// ``StorageError/notDurable(file:reason:)``): the run then exits ``ExitStatus/notDurable``.
enum NotDurableWrites {
    static let occurred = Atomic<Bool>(false)
}
