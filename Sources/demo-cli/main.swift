import Foundation

let environment = ProcessInfo.processInfo.environment
let status = await DemoCLI.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: environment,
    console: .standard(environment: environment))
exit(status.rawValue)
