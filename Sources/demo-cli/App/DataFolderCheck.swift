import Foundation
import Stores

/// The check every command that uses the stores makes first: can the data folder be used at
/// all?
///
/// A folder that cannot be used — a file in its place or in its path, another user's folder,
/// one the system refuses to open — would otherwise make every store report the same problem
/// and carry on from its defaults, so that `profile show` printed the same warning once per
/// store and then a default profile, with status 0, as if nothing were stored. Instead the
/// command prints the problem once and fails (``ExitStatus/failure``).
///
/// A folder that does not exist yet is fine: reads show the defaults, the first write creates it.
enum DataFolderCheck {
    /// The problem with the data folder, or `nil` when it can be used (or does not exist yet).
    ///
    /// Nothing is created or changed: a read never changes a folder. The folder's path is
    /// proved first (see `FileStorage`): a folder reached through another user's link, or whose
    /// path leaves no room for its files' names, is refused here with one message.
    static func problem(dataDirectory: String?, console: Console) -> StorageError? {
        let storage = DemoStores.storage(dataDirectory: dataDirectory, console: console)
        do {
            // A key no store uses: the read finds no document, after checking the folder.
            _ = try storage.load(StoreDocument(key: "demo-cli-folder-check", default: Probe()))
            return nil
        } catch {
            return error
        }
    }

    private struct Probe: Codable, Sendable {}
}
