import Foundation

/// How ``FileStorage`` picks its data folder.
enum FileStorageFolder {
    /// The folder to use, by precedence: `explicit`, then the
    /// ``FileStorage/environmentVariable``, then the platform's per-user data folder plus
    /// `appName`.
    static func resolve(explicit: URL?, appName: String, environment: [String: String]) -> URL {
        if let explicit { return explicit.standardizedFileURL }
        if let path = environment[FileStorage.environmentVariable], !path.isEmpty {
            // A relative path is the user's explicit choice: resolve it against the current folder.
            return URL(filePath: path, directoryHint: .isDirectory).standardizedFileURL
        }
        return platformDataFolder(environment: environment).appending(path: appName, directoryHint: .isDirectory)
    }

    /// The per-user folder for application data.
    ///
    /// Apple platforms: Application Support. Elsewhere: `$XDG_DATA_HOME` if it is an absolute
    /// path (the XDG spec says to ignore a relative one), else `$HOME/.local/share`.
    static func platformDataFolder(environment: [String: String]) -> URL {
        #if canImport(Darwin)
        if let support = try? FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false
        ) {
            return support
        }
        return home(environment: environment).appending(path: "Library/Application Support", directoryHint: .isDirectory)
        #else
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(filePath: xdg, directoryHint: .isDirectory).standardizedFileURL
        }
        return home(environment: environment).appending(path: ".local/share", directoryHint: .isDirectory)
        #endif
    }

    /// `$HOME` if it is an absolute path, else the account's home folder.
    static func home(environment: [String: String]) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(filePath: home, directoryHint: .isDirectory).standardizedFileURL
        }
        return URL(filePath: NSHomeDirectory(), directoryHint: .isDirectory)
    }

    /// The app name used when none is given: the bundle identifier, else the process name.
    static var defaultAppName: String {
        StorageKey.sanitized(
            Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName,
            fallback: "SingletonStores"
        )
    }

    /// Creates `folder` (and missing parents) with permissions `0700` if it does not exist.
    static func create(_ folder: URL) throws(StorageError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.filePath, isDirectory: &isFolder) {
            if isFolder.boolValue { return }
            throw .folderUnavailable(folder: folder, reason: "a file is in the way")
        }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            // Another process may have created it meanwhile.
            if FileManager.default.fileExists(atPath: folder.filePath, isDirectory: &isFolder), isFolder.boolValue {
                return
            }
            throw .folderUnavailable(folder: folder, reason: error.localizedDescription)
        }
    }
}
