// storage-stress app-group <folder> add <n> | show
//
// A process of an app that shares its stores with another process — its widget — by declaring,
// first thing, the folder both can reach (an App Group container on Apple platforms), and then
// makes its store without naming any folder: `add` adds <n> to the count of the "counter"
// document and prints the new count (`add <n> <times>`: <times> updates of <n> each, by the same
// store, as a long-lived app makes them), `show` prints the count. Exit 0, or 1 when the store
// reported a problem or could not write.
import Foundation
import SingletonStores
import SingletonStoresTestSupport

/// Runs `app-group` with the arguments after it; returns the exit status.
func runAppGroup(_ arguments: [String]) -> Int32 {
    guard arguments.count >= 2 else { usage() }
    prepareStores { $0.dataFolder = URL(filePath: arguments[0], directoryHint: .isDirectory) }
    let store = ValueStore(key: "counter", default: PersistedCounter(), watching: .off)
    if let problem = store.loadProblem {
        FileHandle.standardError.write(Data("\(problem)\n".utf8))
        return 1
    }
    switch arguments[1] {
    case "add":
        guard arguments.count == 3 || arguments.count == 4, let amount = Int(arguments[2]),
            let times = arguments.count == 4 ? Int(arguments[3]) : 1, (1...1_000_000).contains(times)
        else { usage() }
        do throws(StorageError) {
            for _ in 0..<times { try store.update { $0.count += amount } }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 1
        }
    case "show": break
    default: usage()
    }
    FileHandle.standardOutput.write(Data("count \(store.value.count)\n".utf8))
    return 0
}
