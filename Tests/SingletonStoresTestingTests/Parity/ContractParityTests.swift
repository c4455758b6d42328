import SingletonStoresTestSupport
import Foundation
import SingletonStores
import SingletonStoresTesting
import Testing

@Suite struct ContractParityTests {
    /// One spec, run against the production store and its stub.
    @Test func counterStubBehavesLikeTheProductionStore() async throws {
        let parity = ContractParity<any CounterContract>(
            production: { CounterStore(center: NotificationCenter()) },
            stub: { CounterStub(count: 0) })
        let observed = try await parity.verify { counter in
            var seen = [counter.count]
            for _ in 0..<3 { counter.increment(); seen.append(counter.count) }
            return seen
        }
        #expect(observed == [0, 1, 2, 3])
    }

    /// A stub that drifts is caught, and the message names both results.
    @Test func driftingStubIsReportedWithBothResults() async {
        struct FrozenStub: CounterContract {
            var count: Int { 0 }
            func increment() {}
        }
        let parity = ContractParity<any CounterContract>(
            production: { CounterStore(center: NotificationCenter()) },
            stub: { FrozenStub() })
        do {
            try await parity.verify { counter in
                counter.increment()
                return counter.count
            }
            Issue.record("a drifted stub must fail the parity check")
        } catch let error as ContractParityError {
            guard case .mismatch(let results) = error else {
                Issue.record("expected a mismatch, got \(error)")
                return
            }
            #expect(results.map(\.implementation) == ["production", "stub"])
            #expect(results.map(\.observed) == ["1", "0"])
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func failingImplementationIsNamed() async {
        struct Broken: Error {}
        let parity = ContractParity<Int>(production: { 1 }, stub: { throw Broken() })
        await #expect(throws: ContractParityError.self) {
            try await parity.verify { $0 }
        }
    }
}
