import Foundation

/// The server environment the app talks to: production, or one of the development servers.
///
/// ```swift
/// let base = APITarget.dev01.baseWebURLString   // "https://dev01.hoge.com"
/// let target = APITarget(rawValue: "dev02")       // .dev02
/// ```
public enum APITarget: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The production servers.
    case production
    /// Development environment 01.
    case dev01
    /// Development environment 02.
    case dev02

    /// The scheme and host every web page of this environment starts with, without a trailing
    /// slash.
    public var baseWebURLString: String {
        switch self {
        case .production: "https://www.hoge.com"
        case .dev01: "https://dev01.hoge.com"
        case .dev02: "https://dev02.hoge.com"
        }
    }

    /// The environment's name, as `--target` on the demo CLI takes it.
    public var description: String { rawValue }
}
