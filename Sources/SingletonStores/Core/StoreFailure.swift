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
/// The `update` of ``ValueStore`` and of ``PersistentStoreCore`` throws the body's own error,
/// with a document that could not be written as its `storage` case; a body that throws nothing
/// makes it throw ``StorageError`` (`Never` conforms, with ``StorageError`` as its ``Thrown``).
/// The rule every store of the package follows is in <doc:Errors>.
public protocol StoreFailure: Error {
    /// The error an `update` whose body throws this one throws: this type itself, unless it
    /// says otherwise (`Never`, the error of a body that cannot throw, says ``StorageError``).
    associatedtype Thrown: Error = Self

    /// The store's error for a document that could not be read or written.
    ///
    /// - Parameter error: What went wrong with the document.
    static func storage(_ error: StorageError) -> Thrown

    /// The store's error for a change the body refused with `error`: `error` itself, unless
    /// ``Thrown`` is another type.
    ///
    /// - Parameter error: What the body threw.
    static func thrown(_ error: Self) -> Thrown
}

extension StoreFailure where Thrown == Self {
    /// `error` itself: a store's own error is what its `update` throws.
    ///
    /// - Parameter error: What the body threw.
    public static func thrown(_ error: Self) -> Self { error }
}

extension Never: StoreFailure {
    /// `error`: the `update` of a body that cannot throw throws the storage's error alone.
    ///
    /// - Parameter error: What went wrong with the document.
    public static func storage(_ error: StorageError) -> StorageError { error }

    /// Never called: a body that cannot throw refuses nothing.
    ///
    /// - Parameter error: No value: `Never` has none.
    public static func thrown(_ error: Never) -> StorageError {}
}

/// The failure of an `update` whose body throws an error of no particular type (`any Error`):
/// the body's error comes out as it was thrown, and a document that could not be written as its
/// ``StorageError``. Behind the untyped forms of `update`.
struct UntypedStoreFailure: StoreFailure {
    let error: any Error

    static func storage(_ error: StorageError) -> any Error { error }

    static func thrown(_ failure: UntypedStoreFailure) -> any Error { failure.error }

    /// Runs `body`, its error wrapped.
    static func run<Value, Result>(
        _ body: (inout Value) throws -> Result, on value: inout Value
    ) throws(UntypedStoreFailure) -> Result {
        do {
            return try body(&value)
        } catch {
            throw UntypedStoreFailure(error: error)
        }
    }
}
