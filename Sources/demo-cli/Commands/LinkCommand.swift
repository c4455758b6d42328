import Stores

/// `demo-cli link NAME` and `demo-cli target show|set`: web links on the stored API target.
enum LinkCommand {
    static func run(_ command: Command, context: CommandContext) -> ExitStatus {
        let stores = context.stores()
        switch command {
        case .link(let link, let gender, let target):
            // The stored profile's gender and the stored target, unless overridden: the same
            // `toURLString(params:api:)` call takes production stores or stubs.
            let genderStore: any GenderStoreContract = gender.map { GenderStoreStub($0) } ?? GenderStore(profile: stores.profile)
            let api: any APITargetStoreContract = target.map { APITargetStoreStub(target: $0) } ?? stores.apiTarget
            context.console.print(link.toURLString(params: [.gender(genderStore)], api: api).escapingControlCharacters)
            return .success
        case .targetShow:
            context.console.print("API target: \(stores.apiTarget.target) (\(stores.apiTarget.target.baseWebURLString))".escapingControlCharacters)
            return .success
        case .targetSet(let target):
            do {
                try stores.apiTarget.select(target)
            } catch {
                return context.fail(error.description)
            }
            context.console.print("API target: \(target) (\(target.baseWebURLString))")
            return .success
        default:
            return .usage
        }
    }
}
