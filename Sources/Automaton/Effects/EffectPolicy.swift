/// How an ``EffectQueue`` treats a new effect when effects of the queue are already running.
///
/// ```swift
/// let search = EffectQueue("search", policy: .newest(1))  // type-ahead: only the latest search
/// let upload = EffectQueue("upload", policy: .oldest(2, whenFull: .suspendNew))  // two at a time, the rest wait
/// ```
///
/// A count below 1 is treated as 1.
public enum EffectPolicy: Hashable, Sendable {
    /// What ``oldest(_:whenFull:)`` does with a new effect when the queue is full.
    public enum Overflow: Hashable, Sendable {
        /// Drop the new effect: it never runs.
        case discardNew
        /// Keep the new effect and start it, in order, when a running one ends or is cancelled.
        case suspendNew
    }

    /// Run every effect as soon as it arrives (merge).
    case runAll
    /// Keep the newest `maxCount` effects: a new one cancels the oldest running one when the
    /// queue is full.
    case newest(_ maxCount: Int)
    /// Keep the oldest `maxCount` effects: a new one is discarded or suspended when the queue is
    /// full.
    case oldest(_ maxCount: Int, whenFull: Overflow)

    /// The effective limit, at least 1; `nil` for ``runAll``.
    var limit: Int? {
        switch self {
        case .runAll: nil
        case let .newest(count), let .oldest(count, _): max(1, count)
        }
    }

    /// The policy with its count raised to the effective limit, so that policies that behave
    /// alike compare equal.
    var normalized: EffectPolicy {
        switch self {
        case .runAll: .runAll
        case let .newest(count): .newest(max(1, count))
        case let .oldest(count, overflow): .oldest(max(1, count), whenFull: overflow)
        }
    }

    /// The policy as Swift source, for messages.
    var declaration: String {
        switch self {
        case .runAll: ".runAll"
        case let .newest(count): ".newest(\(count))"
        case let .oldest(count, .discardNew): ".oldest(\(count), whenFull: .discardNew)"
        case let .oldest(count, .suspendNew): ".oldest(\(count), whenFull: .suspendNew)"
        }
    }
}
