import Foundation

// A reader that went away makes a write fail with EPIPE, reported as an output failure, instead
// of ending the process with SIGPIPE after the command's work is done.
signal(SIGPIPE, SIG_IGN)
// Before anything opens a file: a closed standard descriptor must not be reused for a document.
let closedDescriptors = StandardDescriptors.claim()
let environment = ProcessInfo.processInfo.environment
let console = Console.standard(environment: environment, closed: closedDescriptors)
// Launch variants first: they become the base store values, which the first read fixes.
let arguments = Array(CommandLine.arguments.dropFirst())
let status: ExitStatus =
    if let launch = LaunchVariants.prepare(arguments: arguments, environment: environment, console: console) {
        await DemoCLI.run(
            arguments: launch.remainingArguments, environment: environment, console: console, launchVariants: launch)
    } else {
        .usage
    }
exit(DemoCLI.finish(status, console: console).rawValue)
