// The landing page of the SingletonStores catalog opens with a value store; its code, compiled
// and run.
import Foundation
import SingletonStores
import SingletonStoresTestSupport
import Testing

// Article "SingletonStores" snippet 1: begin
struct Favorites: Codable, Sendable, Equatable { var songs: [String] = [] }

enum FavoritesKey: ProductionStoreKey {  // registers the store: production by default
    static let productionValue = ValueStore(key: "favorites", default: Favorites())  // <data folder>/favorites.json
    static var stubValue: ValueStore<Favorites> { ValueStore(stub: Favorites()) }
}
extension StoreValues {
    var favorites: ValueStore<Favorites> {
        get { self[FavoritesKey.self] }
        set { self[FavoritesKey.self] = newValue }
    }
}

func like(_ song: String, in favorites: ValueStore<Favorites> = StoreValues.current.favorites) throws(StorageError) {
    try favorites.update { $0.songs.append(song) }  // one locked transaction: on disk, then posted
}
// Article "SingletonStores" snippet 1: end

@Suite struct SingletonStoresLandingPageTests {
    @Test func aLikeIsKeptAndPostedOnce() throws {
        let center = NotificationCenter()
        let favorites = ValueStore(stub: Favorites(), center: center)
        let posts = Recorder<StoreChange<Favorites>>()
        let token = favorites.channel.observe(center: center) { posts.append($0) }
        try withStores {
            $0.favorites = favorites
        } operation: {
            try like("Blue in Green")
        }
        #expect(favorites.value.songs == ["Blue in Green"])
        #expect(posts.values.map(\.new.songs) == [["Blue in Green"]])
        token.cancel()
    }
}
