import Testing
@testable import Timers

@Suite struct LockedTests {
    @Test func serializesContendedCriticalSections() async {
        let locked = Locked([Int]())
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for step in 0..<2_000 {
                        // Long enough sections to make the lock contended (the case TSan used to
                        // misreport on Linux).
                        locked.withLock { values in
                            values.append(task * step)
                            values.append(contentsOf: repeatElement(0, count: 20))
                            values.removeLast(20)
                        }
                    }
                }
            }
        }
        #expect(locked.withLock { $0.count } == 8_000)
    }

    @Test func withLockIfAvailableRunsWhenTheLockIsFree() {
        let locked = Locked(1)
        #expect(locked.withLockIfAvailable { value -> Int in
            value += 1
            return value
        } == 2)
    }
}
