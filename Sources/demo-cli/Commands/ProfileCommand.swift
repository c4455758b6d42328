import SingletonStoresLocking
import Stores

/// `demo-cli profile show [--watch]|set`: the stored user profile.
enum ProfileCommand {
    static func run(_ command: Command, context: CommandContext) async -> ExitStatus {
        let stores = context.stores()
        switch command {
        case .profileShow:
            for line in lines(stores.profile.profile) { context.console.print(line) }
            return .success
        case .profileWatch:
            return await watch(stores.profile, console: context.console)
        case .profileSet(let gender, let nickname):
            do {
                if let nickname { try stores.profile.setNickname(nickname) }
                if let gender { try stores.profile.setGender(gender) }
            } catch {
                return context.fail(error)
            }
            context.console.print("Profile saved.")
            for line in lines(stores.profile.profile) { context.console.print(line) }
            return .success
        default:
            return .usage
        }
    }

    /// `profile show --watch`: the profile as `show` prints it, then each change another run
    /// (or this one) commits, until Ctrl-C. On a terminal the five lines are redrawn in place;
    /// piped, each change prints the lines that changed (`nickname: Mika`), one per line.
    private static func watch(_ store: UserProfileStore, console: Console) async -> ExitStatus {
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let token = store.observe { _ in continuation.yield() }
        defer { token.cancel() }
        return await Following.run(console: console, events: changes) { _ in lines(store.profile) }
    }

    /// The profile, one field a line; stored text is shown with control characters escaped.
    static func lines(_ profile: UserProfile) -> [String] {
        let gender: String
        if let value = profile.gender {
            gender = "\(value) (gender_code=\(value.isoCode))"
        } else if let unknown = profile.unknownGenderCode {
            gender = "unknown code \(unknown) (read as none)"
        } else {
            gender = "none"
        }
        return [
            "nickname: \(profile.nickname.isEmpty ? "(not set)" : profile.nickname.escapingControlCharacters)",
            "gender: \(gender)",
            "rank: \(profile.rank.rawValue.escapingControlCharacters)",
            "beta: \(profile.isBetaUser ? "yes" : "no")",
            "id: \(profile.id?.escapingControlCharacters ?? "(none)")",
        ]
    }
}
