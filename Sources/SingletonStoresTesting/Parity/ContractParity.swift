/// Runs one behavioural spec against a contract's production implementation and its stub, so
/// the stub cannot drift from the real thing.
///
/// A stub is only useful while it behaves like production. Write the behaviour once, as a
/// scenario that drives the contract and returns what it observed; the parity check runs it on
/// a fresh production instance and a fresh stub and fails unless both succeed with equal
/// results:
///
/// ```swift
/// @Test func cartStubMatchesProduction() async throws {
///     let parity = ContractParity<any CartContract>(
///         production: { CartStore(center: NotificationCenter()) },
///         stub: { CartStub(itemCount: 0) })
///
///     try await parity.verify { cart in
///         cart.add()
///         cart.add()
///         return cart.itemCount
///     }
/// }
/// ```
///
/// The scenario may also throw (for example with `#require` or an error of its own): a failure
/// in either implementation is reported with the implementation's name.
public struct ContractParity<Contract>: Sendable {
    private let implementations: [(name: String, make: @Sendable () async throws -> Contract)]

    /// Creates a parity check over a production implementation and a stub.
    ///
    /// - Parameters:
    ///   - production: Makes a fresh production instance for one run.
    ///   - stub: Makes a fresh stub for one run, configured to mirror the production instance.
    public init(
        production: @escaping @Sendable () async throws -> Contract,
        stub: @escaping @Sendable () async throws -> Contract
    ) {
        implementations = [("production", production), ("stub", stub)]
    }

    /// Runs `scenario` on both implementations and checks that they agree.
    ///
    /// - Parameter scenario: Drives one implementation and returns what it observed.
    /// - Returns: The result both implementations produced.
    /// - Throws: ``ContractParityError`` naming the implementation that failed or the results
    ///   that differ.
    @discardableResult
    public func verify<Observed: Equatable>(
        _ scenario: (Contract) async throws -> Observed
    ) async throws -> Observed {
        var results: [(name: String, observed: Observed)] = []
        for implementation in implementations {
            do {
                let subject = try await implementation.make()
                results.append((implementation.name, try await scenario(subject)))
            } catch {
                throw ContractParityError.failed(
                    implementation: implementation.name, reason: String(describing: error))
            }
        }
        guard let first = results.first else {
            throw ContractParityError.failed(implementation: "none", reason: "nothing was run")
        }
        for other in results.dropFirst() where other.observed != first.observed {
            throw ContractParityError.mismatch(
                results: results.map { ($0.name, String(describing: $0.observed)) })
        }
        return first.observed
    }
}

/// Why a ``ContractParity`` check failed.
public enum ContractParityError: Error, CustomStringConvertible {
    /// One implementation threw while running the scenario.
    case failed(implementation: String, reason: String)
    /// The implementations ran but observed different things.
    case mismatch(results: [(implementation: String, observed: String)])

    /// What differed, with each implementation's result.
    public var description: String {
        switch self {
        case .failed(let implementation, let reason):
            return "The \(implementation) implementation failed the shared spec: \(reason)"
        case .mismatch(let results):
            let lines = results.map { "  \($0.implementation): \($0.observed)" }
            return "The stub has drifted from production; the same scenario observed:\n"
                + lines.joined(separator: "\n")
                + "\nFix the stub (or the production code) so both behave alike."
        }
    }
}
