import Foundation

let environment = ProcessInfo.processInfo.environment
let console = Console.standard(environment: environment)
// Launch variants first: they become the base store values, which the first read fixes.
let arguments = Array(CommandLine.arguments.dropFirst())
let status: ExitStatus =
    if let launch = LaunchVariants.prepare(arguments: arguments, environment: environment, console: console) {
        await DemoCLI.run(
            arguments: launch.remainingArguments, environment: environment, console: console, launchVariants: launch)
    } else {
        .usage
    }
exit(status.rawValue)
