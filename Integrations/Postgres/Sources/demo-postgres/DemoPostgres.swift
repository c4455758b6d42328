import Foundation
import SingletonStores
import SingletonStoresPostgres

/// Stores shared through PostgreSQL, across processes and machines: a counter, a wallet, feature
/// flags and a boost countdown every instance shows.
@main
enum DemoPostgres {
    static let usage = """
        Usage: demo-postgres COMMAND [--url postgres://USER:PASSWORD@HOST:PORT/DATABASE]

        Stores shared by every process and machine that uses the same database.

        Commands:
          counter add [--times N]      add 1, N times (default 1); prints "acknowledged K" last
          counter show                 print the counter
          wallet top-up N              add N to the wallet
          wallet spend N [--times K]   take N from the wallet, K times (default 1); each is refused
                                       when the wallet holds less, and then the exit status is 1
          wallet show                  print the balance
          flags set NAME on|off        turn a feature flag on or off
          flags show                   print every flag
          flags watch                  print the flags, then a line each time they change, until interrupted
          boost start --seconds N      start a boost of N seconds (1 to 86400) on every machine
          boost stop                   end the boost
          boost status                 print the time the boost has left
          boost watch                  a live countdown of the boost, following changes, until interrupted

        Options:
          --url URL                    the database; or set SINGLETON_STORES_POSTGRES_URL
          --table NAME                 the table that holds the stores (default singleton_stores)
          --round-trips                after each change, print the round trips it took to the server
          --help                       print this help

        Exit status: 0 done; 1 refused, or failed with nothing changed; 64 a usage error;
        69 the database can't be reached (within 15 s); 75 a change may or may not have been made
        (the connection dropped while it committed and the outcome could not be found out).
        """

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            exit(arguments.isEmpty ? 64 : 0)
        }
        let command: Command
        do {
            command = try Command.parse(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(
                Data("demo-postgres: \(Terminal.escaped(error.message))\nRun demo-postgres --help for the commands.\n".utf8))
            exit(64)
        }
        let code = await Runner.run(command)
        exit(code)
    }
}
