@testable import MinervaServer
import MinervaSessions
import Testing

/// What each endpoint of a session asks of a bearer token: the policy the token scopes rest on.
@Suite struct AccessTests {
    /// The owner's own: managing tokens and deleting the session.
    static let ownerOnly: Set<String> = [
        "DELETE /v1/sessions/{id}", "GET /v1/sessions/{id}/tokens", "HEAD /v1/sessions/{id}/tokens", "POST /v1/sessions/{id}/tokens",
        "DELETE /v1/sessions/{id}/tokens/{token}",
    ]

    @Test func readsNeedAReadTokenChangesAWriteOneAndTokensTheOwner() {
        var checked = 0
        for endpoint in Endpoint.all {
            guard case .session = endpoint.handler else { continue }
            for method in endpoint.methods {
                let name = "\(method) \(endpoint.pattern.text)"
                let expected: AccessNeed = Self.ownerOnly.contains(name) ? .owner : method == "GET" || method == "HEAD" ? .read : .write
                #expect(endpoint.needs(method) == expected, "\(name)")
                checked += 1
            }
        }
        #expect(checked > 30)
    }
}
