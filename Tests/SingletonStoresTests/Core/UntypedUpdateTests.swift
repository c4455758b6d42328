import Foundation
import SingletonStores
import SingletonStoresLocking
import SingletonStoresTestSupport
import Testing

/// A body that throws an error of no particular type compiles, as in 0.1, and `update` throws
/// that error as it was thrown; bodies that throw nothing or a `StoreFailure` keep the typed form.
@Suite("update with a body that throws any error")
struct UntypedUpdateTests {
    struct Settings: Codable, Sendable, Equatable {
        var fontSize = 14
        var isLocked = false
    }

    struct SettingsLocked: Error, Equatable {}

    enum SettingsError: StoreFailure, Equatable {
        case tooLarge(Int)
        case storage(StorageError)
    }

    /// The case the 0.1 app upgraded by the notes had to rewrite: no annotation, a plain error.
    @Test func aValueStoreBodyThatThrowsAPlainErrorCompilesAndRefuses() throws {
        try withTemporaryFolder { folder in
            let settings = ValueStore(
                key: "settings", default: Settings(isLocked: true), storage: FileStorage(folder: folder),
                center: NotificationCenter(), watching: .off, reportIssue: { _ in })
            #expect(throws: SettingsLocked()) {
                try settings.update { settings in
                    guard !settings.isLocked else { throw SettingsLocked() }
                    settings.fontSize = 18
                }
            }
            #expect(settings.value.fontSize == 14, "refused: nothing changed")
            let size = try settings.update { settings -> Int in
                if settings.fontSize > 100 { throw SettingsLocked() }
                settings.isLocked = false
                settings.fontSize = 18
                return settings.fontSize
            }
            #expect(size == 18)
            let relaunched = ValueStore(
                key: "settings", default: Settings(), storage: FileStorage(folder: folder), center: NotificationCenter(),
                watching: .off, reportIssue: { _ in })
            #expect(relaunched.value == Settings(fontSize: 18, isLocked: false), "written")
        }
    }

    /// A body that throws nothing, and one that names a `StoreFailure`, keep 0.2's typed errors:
    /// these `do` blocks compile only if `update` throws exactly those types.
    @Test func typedBodiesKeepTheirTypedErrors() throws {
        let settings = ValueStore(stub: Settings())
        do throws(StorageError) {
            try settings.update { $0.fontSize = 16 }
        } catch {
            let typed: StorageError = error
            Issue.record("a stub refused: \(typed)")
        }
        do throws(SettingsError) {
            try settings.update { (settings: inout Settings) throws(SettingsError) in
                guard settings.fontSize < 16 else { throw .tooLarge(settings.fontSize) }
                settings.fontSize += 1
            }
            Issue.record("the refusal was not thrown")
        } catch {
            #expect(error == .tooLarge(16))
        }
        #expect(settings.value.fontSize == 16)
    }

    /// On a network storage: the body's own error as it was thrown, and the storage's error as a
    /// `StorageError`.
    @Test func aSharedValueStoreBodyThatThrowsAPlainErrorCompiles() async throws {
        let server = TestServer()
        let settings = try await SharedValueStore(
            key: "settings", default: Settings(isLocked: true), storage: TestNetworkStorage(server: server),
            center: NotificationCenter())
        await #expect(throws: SettingsLocked()) {
            try await settings.update { settings in
                guard !settings.isLocked else { throw SettingsLocked() }
                settings.fontSize = 18
            }
        }
        server.state.withLock { $0.down = true }
        await #expect {
            try await settings.update { settings in
                if settings.fontSize > 100 { throw SettingsLocked() }
                settings.fontSize = 20
            }
        } throws: { error in
            guard case StorageError.backendUnreachable = error else { return false }
            return true
        }
        #expect(settings.value.fontSize == 14)
    }

    /// The engine of a store of one's own takes the same body.
    @Test func aPersistentStoreCoreBodyThatThrowsAPlainErrorCompiles() throws {
        let core = PersistentStoreCore(
            StoreDocument(key: "settings", default: Settings(isLocked: true)), storage: InMemoryStorage(),
            channel: NotificationChannel("UntypedUpdateTests.settings"), center: NotificationCenter(), watching: .off,
            reportIssue: { _ in })
        #expect(throws: SettingsLocked()) {
            try core.update { settings in
                guard !settings.isLocked else { throw SettingsLocked() }
                settings.fontSize = 18
            }
        }
        #expect(core.state.fontSize == 14)
    }
}
