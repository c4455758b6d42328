// storage-stress <folder> <count>
//
// Increments the "count" of the document "counter" in <folder> <count> times, each through a
// locked FileStorage.update. Two of these running at once must end at exactly 2 × <count>.
// Exit status: 0 on success, 1 on a storage error, 2 on bad arguments.
import Foundation
import Stores

struct Counter: Codable, Sendable {
    var count = 0
    var label = "counter"
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count >= 0 else {
    FileHandle.standardError.write(Data("usage: storage-stress <folder> <count>\n".utf8))
    exit(2)
}
let storage = FileStorage(folder: URL(filePath: arguments[1], directoryHint: .isDirectory))
do {
    for _ in 0..<count {
        try storage.update(Counter.self, forKey: "counter", default: Counter()) { $0.count += 1 }
    }
} catch {
    FileHandle.standardError.write(Data("storage-stress: \(error)\n".utf8))
    exit(1)
}
