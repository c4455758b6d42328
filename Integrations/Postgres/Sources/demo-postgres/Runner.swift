import Foundation
import SingletonStores
import SingletonStoresPostgres

/// Why a wallet's spend was not made, or the storage's own error.
enum WalletError: StoreFailure {
    case short(balance: Int, amount: Int)
    case storage(StorageError)
}

/// How the boost is shown: the time it has left, or that it is not running.
enum Boost {
    static func shown(_ seconds: Int) -> String {
        seconds == 0 ? "not running" : String(format: "%d:%02d left", seconds / 60, seconds % 60)
    }
}

enum Runner {
    /// How long a command tries to reach the database before it exits 69.
    static let reachTimeout: Duration = .seconds(12)

    /// Runs `command` with a storage that runs meanwhile; returns the exit status.
    static func run(_ command: Command) async -> Int32 {
        let storage: PostgresStorage
        do {
            // Tried for 12 s, so that the process has said so and exited 69 within 15 s.
            storage = try PostgresStorage(url: command.url, options: .init(table: command.table, reachTimeout: Self.reachTimeout))
        } catch {
            return fail(error)
        }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await storage.run() }
            let code = await perform(command, on: storage)
            group.cancelAll()
            return code
        }
    }

    static func perform(_ command: Command, on storage: PostgresStorage) async -> Int32 {
        do throws(StorageError) {
            switch command.action {
            case .counterAdd(let times):
                let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage, follows: false)
                var acknowledged = 0
                do throws(StorageError) {
                    for _ in 0..<times {
                        let value = try await counter.update { (count: inout Int) in
                            count += 1
                            return count
                        }
                        acknowledged += 1
                        say("counter \(value)" + trips(command, storage))
                    }
                } catch {
                    say("acknowledged \(acknowledged)")
                    return fail(error)
                }
                say("acknowledged \(acknowledged)")
            case .counterShow:
                let counter = try await SharedValueStore(key: "counter", default: 0, storage: storage, follows: false)
                say("counter \(counter.value)")
            case .walletTopUp(let amount):
                let wallet = try await SharedValueStore(key: "wallet", default: 0, storage: storage, follows: false)
                let balance = try await wallet.update { (balance: inout Int) in
                    balance = min(balance + amount, Int.max / 2)
                    return balance
                }
                say("balance \(balance)" + trips(command, storage))
            case .walletSpend(let amount, let times):
                let wallet = try await SharedValueStore(key: "wallet", default: 0, storage: storage, follows: false)
                var spent = 0
                var refused = 0
                for _ in 0..<times {
                    do throws(WalletError) {
                        let balance = try await wallet.update { (balance: inout Int) throws(WalletError) in
                            guard balance >= amount else { throw .short(balance: balance, amount: amount) }
                            balance -= amount
                            return balance
                        }
                        spent += 1
                        say("spent \(amount), balance \(balance)" + trips(command, storage))
                    } catch {
                        switch error {
                        case .short(let balance, let amount):
                            refused += 1
                            say("refused: the wallet holds \(balance), short of \(amount); nothing was spent")
                        case .storage(let error):
                            if times > 1 { say("spent \(spent) times, refused \(refused) times") }
                            return fail(error)
                        }
                    }
                }
                if times > 1 { say("spent \(spent) times, refused \(refused) times") }
                if refused > 0 { return 1 }
            case .walletShow:
                let wallet = try await SharedValueStore(key: "wallet", default: 0, storage: storage, follows: false)
                say("balance \(wallet.value)")
            case .flagSet(let name, let on):
                let flags = try await SharedValueStore(key: "flags", default: [String: Bool](), storage: storage, follows: false)
                try await flags.update { $0[name] = on }
                say(shown(flags.value) + trips(command, storage))
            case .flagsShow:
                let flags = try await SharedValueStore(key: "flags", default: [String: Bool](), storage: storage, follows: false)
                say(shown(flags.value))
            case .flagsWatch:
                let flags = try await SharedValueStore(key: "flags", default: [String: Bool](), storage: storage)
                let changes = flags.changes(buffering: .unbounded)
                say(shown(flags.value))
                for await change in changes { say(shown(change.new)) }
            case .boostStart(let seconds):
                let boost = try await SharedCountdownStore(key: "boost", storage: storage, follows: false)
                try await boost.start(duration: .seconds(seconds))
                say("boost started: " + Boost.shown(boost.remainingSeconds) + trips(command, storage))
            case .boostStop:
                let boost = try await SharedCountdownStore(key: "boost", storage: storage, follows: false)
                try await boost.stop()
                say("boost stopped" + trips(command, storage))
            case .boostStatus:
                let boost = try await SharedCountdownStore(key: "boost", storage: storage, follows: false)
                say("boost " + Boost.shown(boost.remainingSeconds))
            case .boostWatch:
                let boost = try await SharedCountdownStore(key: "boost", storage: storage)
                await BoostWatch(store: boost).run()
            }
            return 0
        } catch {
            return fail(error)
        }
    }

    static func trips(_ command: Command, _ storage: PostgresStorage) -> String {
        command.showsRoundTrips ? " (\(storage.roundTrips.lastCommit) round trips)" : ""
    }

    static func shown(_ flags: [String: Bool]) -> String {
        flags.isEmpty
            ? "flags: none set"
            : "flags: " + flags.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value ? "on" : "off")" }.joined(separator: " ")
    }

    /// Prints `line`, with its control and formatting characters escaped (``Terminal/escaped(_:)``):
    /// it may hold text another program stored, such as a flag's name.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((Terminal.escaped(line) + "\n").utf8))
    }

    /// Prints `error` and returns its exit status.
    static func fail(_ error: StorageError) -> Int32 {
        FileHandle.standardError.write(Data("demo-postgres: \(error.description)\n".utf8))
        switch error {
        case .backendUnreachable: return 69
        case .commitOutcomeUnknown: return 75
        default: return 1
        }
    }
}

/// A live countdown of the boost: a line when the shown second changes, here or on another
/// machine, until the task is cancelled.
struct BoostWatch {
    let store: SharedCountdownStore

    func run() async {
        let (lines, next) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        next.yield("boost " + Boost.shown(store.remainingSeconds))
        let token = store.observe { seconds in next.yield("boost " + Boost.shown(seconds)) }
        await withTaskCancellationHandler {
            var shownLine = ""
            for await line in lines where line != shownLine {
                shownLine = line
                Runner.say(line)
            }
        } onCancel: {
            next.finish()
        }
        token.cancel()
    }
}
