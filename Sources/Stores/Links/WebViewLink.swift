import Foundation
import SingletonStores

/// A web page the app opens in a web view, addressed on the current server environment.
///
/// ```swift
/// // In app code: the current API target, the current user's gender.
/// let url = WebViewLink.help.toURLString(params: [.gender(StoreValues.current.gender)])
///
/// // In a test: stubs, no set-up.
/// let stubbed = WebViewLink.help.toURLString(
///     params: [.gender(GenderStoreStub(isFemale: true, isNilGenderCode: false))],
///     api: APITargetStoreStub(target: .dev01))
/// // "https://dev01.hoge.com/api/web/help?gender_code=2"
/// ```
///
/// The URL is built with `URLComponents`; every query name and value is percent-encoded, so a
/// value containing `&`, `=` or spaces cannot break the query.
public enum WebViewLink: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Help. Its content differs for men and women, so pass `.gender`.
    case help = "/api/web/help"
    /// Terms of service.
    case terms = "/api/web/terms"
    /// Privacy policy.
    case privacy = "/api/web/privacy"

    /// The page's address on `api`'s environment, with the given query parameters.
    ///
    /// Parameters that have no value (a gender store with no code) are left out; with no
    /// parameters left, the URL has no `?`.
    ///
    /// - Parameters:
    ///   - params: The query parameters, in order.
    ///   - api: The environment; the current ``APITargetStoreContract`` by default.
    /// - Returns: The absolute URL as a string.
    public func toURLString(
        params: [GetParameterType] = [],
        api: any APITargetStoreContract = StoreValues.current.apiTarget
    ) -> String {
        let base = api.target.baseWebURLString + rawValue
        let items = params.compactMap(\.queryItem)
        guard var components = URLComponents(string: base) else { return base }
        if !items.isEmpty {
            components.percentEncodedQueryItems = items.map {
                URLQueryItem(
                    name: percentEncodedQueryComponent($0.name),
                    value: percentEncodedQueryComponent($0.value ?? ""))
            }
        }
        return components.string ?? base
    }

    /// The page's address as a `URL`; see ``toURLString(params:api:)``.
    ///
    /// - Parameters:
    ///   - params: The query parameters, in order.
    ///   - api: The environment; the current ``APITargetStoreContract`` by default.
    public func url(
        params: [GetParameterType] = [],
        api: any APITargetStoreContract = StoreValues.current.apiTarget
    ) -> URL? {
        URL(string: toURLString(params: params, api: api))
    }

    /// The link's name, as `demo-cli link NAME` takes it.
    public var description: String {
        switch self {
        case .help: "help"
        case .terms: "terms"
        case .privacy: "privacy"
        }
    }
}
