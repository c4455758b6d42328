// The README's example of a store that follows another process, verbatim between the markers.
// QuickStartTests checks that README.md and this file agree; the test below runs it, with a
// second store in place of the other process. (The example posts on the default notification
// center, as an app would; no other test observes the profile there.)
import SingletonStoresTestSupport
import Foundation
import SingletonStores
import Stores
import Testing

@Suite struct ReadmeLiveTests {
    @Test func theExampleStoreFollowsAnotherWriter() throws {
        try withTemporaryFolder { sharedFolder in
            let (profile, token) = readmeLiveExample(sharedFolder: sharedFolder)
            defer { token.cancel() }
            let other = UserProfileStore(storage: FileStorage(folder: sharedFolder), center: NotificationCenter(), watching: .off)
            try other.setNickname("Aki")
            #expect(eventually { profile.profile.nickname == "Aki" })
        }
    }
}

private func readmeLiveExample(sharedFolder: URL) -> (UserProfileStore, ObservationToken) {
    // README live: begin
// The widget and the app share a folder; each follows what the other writes.
let profile = UserProfileStore(storage: FileStorage(folder: sharedFolder))
let token = profile.observe { change in
    print("nickname is now \(change.new.nickname)")  // also for changes made by the other process
}
    // README live: end
    return (profile, token)
}
