/// A type built from exactly the dependencies it needs, named as one value.
///
/// A rule for screens: no segues, no half-initialised view controllers; each screen
/// declares its `Dependency` and is created through ``make(withDependency:)``. A flow's output can
/// then be "the next screen, built with exactly what it needs":
///
/// ```swift
/// struct AtteLoginScreen: DependencyInjectable {
///     struct Dependency: Sendable {
///         let resource: MercariIDResource
///         let token: String
///     }
///     let dependency: Dependency
///
///     static func make(withDependency dependency: Dependency) -> Self {
///         Self(dependency: dependency)
///     }
/// }
///
/// let screen = AtteLoginScreen.make(withDependency: .init(resource: resource, token: token))
/// ```
///
/// A type that needs nothing keeps the default `Dependency == Void` and is made with ``make()``.
public protocol DependencyInjectable {
    /// Everything an instance needs; `Void` when it needs nothing.
    associatedtype Dependency = Void

    /// Creates an instance from its dependencies.
    static func make(withDependency dependency: Dependency) -> Self
}

extension DependencyInjectable where Dependency == Void {
    /// Creates an instance that needs no dependencies.
    public static func make() -> Self {
        make(withDependency: ())
    }
}
