import SingletonStoresLocking
import Foundation
import Stores

/// The store variants demo-cli was launched with — `--store-variant KEY=NAME` anywhere on the
/// command line, or `SINGLETON_STORES_VARIANTS` — applied before anything reads a store.
///
/// ```sh
/// demo-cli --store-variant boost=running --store-variant api-target=dev01 boost status
/// SINGLETON_STORES_VARIANTS=boost=running,api-target=dev01 demo-cli link help
/// ```
///
/// A chosen store is a stub: commands that show it show the stub, and nothing is read from or
/// written to the data folder for it.
enum LaunchVariants {
    /// The keys demo-cli lets a launch choose for: the built-in stores.
    static var keys: [any StoreKey.Type] { StoreLaunchVariants.builtInKeys }

    /// Reads the variants and makes them the process's base store values.
    ///
    /// - Returns: The variants (their `remainingArguments` are the command line without them),
    ///   or `nil` after printing what was wrong (exit with ``ExitStatus/usage``).
    static func prepare(arguments: [String], environment: [String: String], console: Console) -> StoreLaunchVariants? {
        do {
            let launch = try StoreLaunchVariants(arguments: arguments, environment: environment)
            try prepareStores { try $0.apply(launch, keys: keys) }
            return launch
        } catch {
            console.printError("demo-cli: \("\(error)".escapingControlCharacters)")
            return nil
        }
    }
}
