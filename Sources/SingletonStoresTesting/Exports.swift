// A test target that imports SingletonStoresTesting also sees the kit it tests.
@_exported import SingletonStores
