/// An API target store that returns a fixed environment, for tests and previews.
///
/// ```swift
/// let api = APITargetStoreStub(target: .dev02)
/// let url = WebViewLink.help.toURLString(api: api)   // "https://dev02.hoge.com/api/web/help"
/// ```
public struct APITargetStoreStub: APITargetStoreContract, Equatable {
    /// The environment this stub reports.
    public let target: APITarget

    /// Creates a stub that reports `target`.
    ///
    /// - Parameter target: The environment to report.
    public init(target: APITarget) {
        self.target = target
    }
}
