import SingletonStores

extension StoreLaunchVariants {
    /// The keys of the built-in stores, for `StoreValues.applyLaunchVariants(keys:)`:
    /// `boost` (`none`, `running`), `api-target` (`production`, `dev01`, `dev02`), `gender`
    /// (`female`, `male`, `none`; `unset` too), and `profile` and `purchases`, which offer no variants.
    ///
    /// ```swift
    /// prepareStores { $0.applyLaunchVariants(keys: StoreLaunchVariants.builtInKeys + [CartKey.self]) }
    /// ```
    public static var builtInKeys: [any StoreKey.Type] {
        [
            BoostTimeManagerKey.self, APITargetStoreKey.self, GenderStoreKey.self, UserProfileStoreKey.self,
            PurchaseStoreKey.self,
        ]
    }
}
