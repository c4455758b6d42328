import Foundation
import SingletonStores

/// A query parameter a web link can carry, built from the store it comes from.
///
/// The associated value is the source of the parameter's value, so the same link code works
/// with production stores and with stubs:
///
/// ```swift
/// let url = WebViewLink.help.toURLString(params: [.gender(StoreValues.current.gender)])
/// ```
public enum GetParameterType: Sendable {
    /// `gender_code=<ISO/IEC 5218 code>`; omitted when the store has no code.
    case gender(any GenderStoreContract)
    /// Any other parameter. Name and value are percent-encoded.
    case custom(name: String, value: String)

    /// The query item this parameter adds, or `nil` when it adds none.
    public var queryItem: URLQueryItem? {
        switch self {
        case .gender(let store):
            guard let code = store.genderCode else { return nil }
            return URLQueryItem(name: "gender_code", value: String(code))
        case .custom(let name, let value):
            return URLQueryItem(name: name, value: value)
        }
    }

    /// The parameter as `name=value`, percent-encoded, or `nil` when it adds none.
    public var keyValueString: String? {
        guard let item = queryItem else { return nil }
        return "\(percentEncodedQueryComponent(item.name))=\(percentEncodedQueryComponent(item.value ?? ""))"
    }
}

/// The characters a query name or value may keep as they are: `urlQueryAllowed` less the ones
/// that separate or mean something inside a query (`&`, `=`, `+`, `#`, `?`, `/`).
private let queryComponentAllowed: CharacterSet = {
    var allowed = CharacterSet.urlQueryAllowed
    allowed.remove(charactersIn: "&=+#?/")
    return allowed
}()

/// Percent-encodes one query name or value so it cannot split or end the query.
func percentEncodedQueryComponent(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: queryComponentAllowed) ?? ""
}
