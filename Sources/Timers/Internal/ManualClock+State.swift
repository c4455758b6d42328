// The state behind a ManualClock, changed only under its lock.

extension ManualClock {
    struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let task: Int?
        let continuation: CheckedContinuation<Void, any Error>
    }

    struct State {
        var now: Instant
        /// Sorted by deadline, then by arrival.
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        /// Tasks whose sleep the clock ended and that have not started running yet.
        var wakingTasks: Set<Int> = []
        /// Tasks woken by the clock (or started by a timer) that run and have not slept since.
        var busyTasks: Set<Int> = []
        /// Tasks a timer is about to start and that have not begun running yet.
        var announcedTasks = 0
        /// Running tasks started by a timer of this module: each promises to sleep on the clock
        /// again or to report that it finished, so the clock waits for them without a time bound.
        var cooperativeTasks: Set<Int> = []

        init(now: Instant) {
            self.now = now
        }

        var hasWakingTasks: Bool {
            !wakingTasks.isEmpty || announcedTasks > 0
        }

        /// Whether a cooperative task is starting, waking or running: then `advance` waits for it
        /// however long the machine takes to schedule it.
        var awaitsCooperativeTask: Bool {
            announcedTasks > 0 || !busyTasks.isDisjoint(with: cooperativeTasks)
                || !wakingTasks.isDisjoint(with: cooperativeTasks)
        }

        mutating func insert(_ sleeper: Sleeper) {
            // Insert after every sleeper with the same or an earlier deadline (FIFO on ties).
            var low = 0
            var high = sleepers.count
            while low < high {
                let middle = (low + high) / 2
                if sleepers[middle].deadline <= sleeper.deadline {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            sleepers.insert(sleeper, at: low)
        }

        mutating func removeSleeper(id: UInt64) -> Sleeper? {
            guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
            return sleepers.remove(at: index)
        }

        mutating func forgetBusyTasks() {
            wakingTasks.removeAll()
            busyTasks.removeAll()
            announcedTasks = 0
        }
    }
}

/// An identity for the current task, stable while the task lives.
func currentTaskKey() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
}
