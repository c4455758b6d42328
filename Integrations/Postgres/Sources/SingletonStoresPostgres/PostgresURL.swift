import Foundation
import PostgresNIO
import SingletonStores

/// Reads a `postgres://` URL into a client configuration, without ever repeating its password.
package enum PostgresURL {
    package static func configuration(_ text: String) throws(StorageError) -> PostgresClient.Configuration {
        let shown = redacted(text)
        func refuse(_ reason: String) -> StorageError {
            .backendUnreachable(backend: "PostgreSQL at \(shown)", reason: "\(reason); nothing was connected")
        }
        guard text.utf8.count <= 4096, let components = URLComponents(string: text) else {
            throw refuse("the URL can't be read (postgres://USER:PASSWORD@HOST:PORT/DATABASE)")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw refuse("the URL must start with postgres://")
        }
        guard let host = components.host, !host.isEmpty else { throw refuse("the URL names no host") }
        guard let user = components.user?.removingPercentEncoding ?? components.user, !user.isEmpty else {
            throw refuse("the URL names no user (postgres://USER@HOST/DATABASE)")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw refuse("the port must be 1 to 65535") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw refuse("the URL names no database (…/DATABASE)") }
        let password = components.password.map { $0.removingPercentEncoding ?? $0 }
        var tls = PostgresClient.Configuration.TLS.prefer(.makeClientConfiguration())
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", "disable"): tls = .disable
            case ("sslmode", "prefer"), ("sslmode", "allow"): tls = .prefer(.makeClientConfiguration())
            case ("sslmode", "require"): tls = .require(.makeClientConfiguration())
            case ("sslmode", _): throw refuse("sslmode must be disable, prefer or require")
            default: throw refuse("the URL has an option this storage does not know: \(item.name.debugDescription)")
            }
        }
        return PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database.removingPercentEncoding ?? database,
            tls: tls)
    }

    /// `text` with the password of its user part, if any, replaced by `***`; control characters escaped.
    static func redacted(_ text: String) -> String {
        var shown = text
        if let scheme = shown.range(of: "://"), let at = shown[scheme.upperBound...].lastIndex(of: "@") {
            let userPart = shown[scheme.upperBound..<at]
            if let colon = userPart.firstIndex(of: ":") {
                shown.replaceSubrange(shown.index(after: colon)..<at, with: "***")
            }
        }
        return String(shown.prefix(200)).unicodeScalars.map {
            $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }.joined()
    }
}
