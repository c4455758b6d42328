// storage-stress <folder> <count> [counter|purchases]
// storage-stress as-user <uid|-> <umask|-> <folder> <step>…   (see AsUser.swift)
//
// A second process for the cross-process tests.
// - counter (default): increments the "count" of the document "counter" in <folder> <count>
//   times, each through a locked FileStorage.update.
// - purchases: buys one boost item <count> times through PurchaseManager with the local backend,
//   on the ledger in <folder>.
// Two of these running at once must end at exactly 2 × <count>.
// Exit status: 0 on success, 1 on a storage or purchase error, 2 on bad arguments.
import Foundation
import Stores

struct Counter: Codable, Sendable {
    var count = 0
    var label = "counter"
}

// storage-stress as-user …: steps run as another user; see AsUser.swift.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "as-user" {
    exit(runAsUser(Array(CommandLine.arguments.dropFirst(2))))
}

let arguments = CommandLine.arguments
let mode = arguments.count == 4 ? arguments[3] : "counter"
guard arguments.count == 3 || arguments.count == 4, let count = Int(arguments[2]), count >= 0,
    mode == "counter" || mode == "purchases"
else {
    FileHandle.standardError.write(Data("usage: storage-stress <folder> <count> [counter|purchases]\n".utf8))
    exit(2)
}
let storage = FileStorage(folder: URL(filePath: arguments[1], directoryHint: .isDirectory))
do {
    switch mode {
    case "purchases":
        let purchases = PurchaseManager(storage: storage, center: NotificationCenter())
        for _ in 0..<count {
            try await purchases.buy(.boostItems(1))
            purchases.acknowledge()
        }
    default:
        for _ in 0..<count {
            try storage.update(Counter.self, forKey: "counter", default: Counter()) { $0.count += 1 }
        }
    }
} catch {
    FileHandle.standardError.write(Data("storage-stress: \(error)\n".utf8))
    exit(1)
}
