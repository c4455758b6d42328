import SingletonStoresLocking
import Stores

/// `demo-cli link NAME` and `demo-cli target show|set`: web links on the stored API target.
enum LinkCommand {
    static func run(_ command: Command, context: CommandContext) -> ExitStatus {
        let stores = context.stores()
        switch command {
        case .link(let link, let gender, let target):
            // The stored profile's gender and the stored target, unless overridden: the same
            // `toURLString(params:api:)` call takes production stores or stubs.
            let genderStore: any GenderStoreContract =
                gender.map { GenderStoreStub($0) }
                ?? context.shown(GenderStoreKey.self, else: GenderStore(profile: stores.profile))
            let api: any APITargetStoreContract =
                target.map { APITargetStoreStub(target: $0) } ?? context.shown(APITargetStoreKey.self, else: stores.apiTarget)
            context.console.print(link.toURLString(params: [.gender(genderStore)], api: api).escapingControlCharacters)
            return .success
        case .targetShow:
            let shown = context.shown(APITargetStoreKey.self, else: stores.apiTarget).target
            context.console.print("API target: \(shown) (\(shown.baseWebURLString))".escapingControlCharacters)
            return .success
        case .targetSet(let target):
            do {
                try stores.apiTarget.select(target)
            } catch {
                return context.fail(error)
            }
            context.console.print("API target: \(target) (\(target.baseWebURLString))")
            return .success
        default:
            return .usage
        }
    }
}
