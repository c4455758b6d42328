import Foundation
import SingletonStores
import Stores

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `demo-cli data-dir` and `demo-cli reset`: where the stores' files are, and removing them.
enum DataFolderCommand {
    /// The keys of the stores' documents: `<key>.json`, with its lock `<key>.lock`.
    static let keys = ["boost", "profile", "purchases", "receipts", "apiTarget"]

    /// The data folder `dataDirectory` names (already `~`-expanded), or the per-user default, and
    /// where it was chosen, as help shows it.
    static func folder(dataDirectory: String?, option: String?, environment: [String: String]) -> HelpText.DataFolder {
        // Only the folder is wanted: a lock timeout is passed, so this storage does not read
        // (and report) the environment's, which the command's own storage reports.
        let storage = FileStorage(
            folder: dataDirectory.map { URL(filePath: $0, directoryHint: .isDirectory) }, appName: "demo-cli",
            environment: environment, lockTimeout: FileStorage.defaultLockTimeout, reportNotice: { _ in })
        var path = storage.folder.path(percentEncoded: false)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        let source =
            option != nil
            ? "from --data-dir" : dataDirectory != nil ? "from $\(FileStorage.environmentVariable)" : "the per-user default"
        return HelpText.DataFolder(path: path, source: source)
    }

    /// `data-dir`: the folder's path, one line (escaped: a path may contain anything).
    static func printFolder(_ folder: HelpText.DataFolder, context: CommandContext) -> ExitStatus {
        context.console.print(folder.path.escapingControlCharacters)
        return .success
    }

    /// `reset`: removes each store's document, its lock file and any temporary file a killed
    /// writer left — only those proven the library's (see `LibraryFiles`): a file of the same
    /// name that is not wholly in its format, not the user's own, a link, a lock file beside a
    /// document that is not the library's, or a temporary file a running writer holds, is left
    /// and named with the reason. Every other file in the folder — damaged documents kept aside
    /// included — stays. The folder is opened once, after its path is proved, and everything
    /// is removed through that descriptor: a link put in its path meanwhile redirects nothing.
    /// Asks first on a terminal unless `confirmed`; refuses without `confirmed` elsewhere.
    ///
    /// Run it while no other run of demo-cli uses the folder (a live view would keep showing
    /// what it had read).
    ///
    /// A `receipts.json` that holds purchases paid for but not yet credited is kept, and named,
    /// unless `discardUncredited`: the next run credits them (to the new, empty ledger).
    static func reset(
        confirmed: Bool, discardUncredited: Bool = false, folder: HelpText.DataFolder, context: CommandContext
    ) -> ExitStatus {
        let console = context.console
        let shown = folder.path.escapingControlCharacters
        if !confirmed {
            guard console.isInputTerminal else {
                return context.fail(
                    "reset removes the saved boost, profile, purchases and API target from \(folder.path); "
                        + "add --yes to confirm (standard input is not a terminal to ask on)")
            }
            console.write("Remove the saved boost, profile, purchases and API target from \(shown)? [y/N] ")
            let answer = console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
            guard answer == "y" || answer == "yes" else {
                console.print("Nothing was removed.")
                return .failure
            }
        }
        let url = URL(filePath: folder.path, directoryHint: .isDirectory)
        let opened: LibraryFiles.Folder?
        do { opened = try LibraryFiles.open(url) } catch {
            return context.fail(error)
        }
        guard let opened else {
            console.print("No saved files in \(shown); nothing to remove.")
            return .success
        }
        var files: [LibraryFiles.File] = []
        var left: [LibraryFiles.Left] = []
        var keptReceipts: String?
        for key in keys {
            let found = LibraryFiles.files(forKey: key, in: opened)
            left += found.left
            // The library's own receipts, holding purchases paid for and not yet credited.
            if key == LocalPurchaseBackend.documentKey, !discardUncredited,
                found.own.contains(where: { $0.name == "\(key).json" }),
                let reason = uncreditedPurchases(in: url)
            {
                keptReceipts = reason
                continue
            }
            files += found.own
        }
        var removed: [String] = []
        for file in files {
            switch LibraryFiles.remove(file, in: opened) {
            case .removed: removed.append(file.name)
            case .replaced: left.append(LibraryFiles.Left(name: file.name, reason: "it was replaced while reset ran"))
            case .failed(let code):
                let path = folder.path + "/" + file.name
                let done = removed.isEmpty ? "nothing was removed" : "removed before it: " + removed.joined(separator: ", ")
                return context.fail(
                    "could not remove \(path.escapingControlCharacters): \(StandardStream.describe(code)); "
                        + done.escapingControlCharacters)
            }
        }
        // The removals are made durable before they are reported: until the folder is flushed, a
        // power cut may bring the files back.
        let unflushed = removed.isEmpty ? nil : LibraryFiles.flush(opened)
        if removed.isEmpty {
            console.print("No saved files in \(shown); nothing to remove.")
        } else {
            console.print(
                "Removed \(removed.count) file\(removed.count == 1 ? "" : "s") from \(shown): \(removed.joined(separator: ", "))."
            )
        }
        if let keptReceipts {
            console.print(
                "Kept \(LocalPurchaseBackend.documentKey).json: \(keptReceipts.escapingControlCharacters) "
                    + "To remove it too, run reset --yes --discard-uncredited.")
        }
        if !left.isEmpty {
            console.print("Left in place, not proven saved by demo-cli:")
            for file in left {
                console.print("  \(file.name.escapingControlCharacters): \(file.reason)")
            }
        }
        if let unflushed {
            console.printError(
                "demo-cli: warning: the files are removed, and the app reads them so from now on, but the disk reported "
                    + "an error while the folder \(shown) was being flushed (\(StandardStream.describe(unflushed))): "
                    + "a power cut may bring them back (reset --yes would then remove them again).")
            return .notDurable
        }
        return .success
    }

    /// Why the receipts in `folder` must be kept, in a sentence: some are paid for and not yet
    /// credited, or they could not be checked; `nil` when none is waiting (or there are none).
    /// Reads only: nothing is moved or written.
    private static func uncreditedPurchases(in folder: URL) -> String? {
        let storage = FileStorage(
            folder: folder, appName: "demo-cli", lockTimeout: FileStorage.defaultLockTimeout, reportNotice: { _ in })
        do {
            let waiting = try LocalPurchaseBackend.uncreditedReceipts(in: storage)
            guard !waiting.isEmpty else { return nil }
            var bought = waiting.prefix(5).map(\.product.description).joined(separator: ", ")
            if waiting.count > 5 { bought += " and \(waiting.count - 5) more" }
            return "it holds \(waiting.count) purchase\(waiting.count == 1 ? "" : "s") paid for and not yet credited "
                + "(\(bought)); the next run that can write the purchases ledger credits \(waiting.count == 1 ? "it" : "them")."
        } catch {
            return
                "it could not be checked for purchases paid for and not yet credited (\(error.errorDescription ?? error.description))."
        }
    }
}
