// swift-format-ignore-file
// (The code between the mirror markers is a verbatim copy of doc comments, laid out as the
// comments show it, so the formatter leaves this file alone.)
// The examples of SingletonStoresTesting's doc comments, verbatim between the markers, so that
// they compile and run. QuickStartTests/DocCommentSnippetTests checks that they agree.
import Foundation
import SingletonStoresTestSupport
import SingletonStoresTesting
import Testing

// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 3: begin
@Test(.productionStores)
func theAppReadsTheSharedCounter() {
    #expect(StoreValues.current.counter is CounterStore)
}
// Doc "SingletonStoresTesting/Traits/StoresTrait.swift" snippet 3: end

// Doc "SingletonStoresTesting/Folders/TemporaryStoreFolder.swift" snippet 1: begin
@Test func theFontSizeIsKeptOnDisk() throws {
    try withTemporaryStoreFolder { folder in
        try FileStorage(folder: folder).save(20, forKey: "font-size")
        let reloaded = try FileStorage(folder: folder).load(Int.self, forKey: "font-size", default: 17)
        #expect(reloaded.value == 20)
    }
}
// Doc "SingletonStoresTesting/Folders/TemporaryStoreFolder.swift" snippet 1: end
