/// The error of a store's own: the reasons it refuses a change, and a storage failure as one
/// more of them, so that a decision that can be refused or fail to save throws one typed error.
///
/// An enum with a `storage(StorageError)` case conforms as it is:
///
/// ```swift
/// enum WalletError: StoreFailure {
///     case insufficientFunds(balance: Int)
///     case storage(StorageError)
/// }
///
/// func pay(_ amount: Int, from wallet: ValueStore<Int>) throws(WalletError) {
///     try wallet.update { (balance: inout Int) throws(WalletError) in
///         guard balance >= amount else { throw .insufficientFunds(balance: balance) }
///         balance -= amount
///     }
/// }
/// ```
///
/// The `update` of ``ValueStore`` and of ``PersistentStoreCore`` throws the body's own error
/// when it conforms, with a document that could not be written as its `storage` case. The
/// rule every store of the package follows is in <doc:Errors>.
public protocol StoreFailure: Error {
    /// The store's error for a document that could not be read or written.
    ///
    /// - Parameter error: What went wrong with the document.
    static func storage(_ error: StorageError) -> Self
}
