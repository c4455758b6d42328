import Foundation

extension StoreValues {
    /// The folder where every store without a storage of its own keeps its documents: each
    /// ``FileStorage`` made without a `folder` uses it. `nil` (the default) leaves the choice
    /// to ``FileStorage``: the `SINGLETON_STORES_DATA_DIR` environment variable, else a folder of
    /// the platform's named after the app.
    ///
    /// Declare it once, first thing at launch, in every process that shares the stores — an app
    /// and its widget, its other extensions, a helper tool — so that they all read and write the
    /// same documents (see <doc:AnAppAndItsWidget>):
    ///
    /// ```swift
    /// prepareStores {
    ///     $0.dataFolder = sharedStoresFolder()  // on Apple platforms, a folder in the App Group container
    /// }
    /// ```
    ///
    /// Each process must declare it before it makes a store: a store made earlier keeps the
    /// folder it would have had without it, so a storage made without a folder counts as a read
    /// of the store values, and ``prepareStores(_:)`` called after one is reported and ignored
    /// (``StoreIssue/storesPreparedAfterUse``). Inside the ``prepareStores(_:)`` that declares
    /// it, set it first: a store the same call makes afterwards uses it, and one made before is
    /// reported (``StoreIssue/storeMadeBeforeDataFolder(storeFolder:dataFolder:)``). A test sets it for
    /// its own scope only, as any store value: `withStores { $0.dataFolder = folder } operation:
    /// { … }`.
    public var dataFolder: URL? {
        get { overrides?.value(at: dataFolderSlot, as: URL.self) }
        set {
            if let newValue {
                setValue(newValue, at: dataFolderSlot)
            } else {
                overrides = overrides?.removing(dataFolderSlot)
            }
            StorePreparation.inProgress?.dataFolder.withLock { $0 = newValue }
        }
    }

    /// The data folder of a storage made now without one: inside ``prepareStores(_:)``, the one
    /// the values being prepared declared so far (the registry is not read, which would seal the
    /// preparation); elsewhere, the current values'.
    static var declaredDataFolder: URL? {
        if let preparing = StorePreparation.inProgress { return preparing.dataFolder.withLock { $0 } }
        return current.dataFolder
    }

    /// Notes a storage made in `folder` without a declared folder: inside ``prepareStores(_:)``,
    /// one that a declaration later in the same call would have moved (it is reported then).
    static func noteStorageWithoutDeclaredFolder(_ folder: URL) {
        StorePreparation.inProgress?.storageBeforeDeclaration.withLock { $0 = $0 ?? folder }
    }
}

/// The slot of the declared data folder in the override list.
private enum DataFolderSlot {}
private let dataFolderSlot = ObjectIdentifier(DataFolderSlot.self)
