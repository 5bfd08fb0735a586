import MicroHTTP
import MinervaJSON
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// The members of `POST …/tokens`.
    static let tokenRequestKeys: JSONKeys = ["scope", "label"]

    /// `POST /v1/sessions/{id}/tokens`: a new extra token, its secret shown this once (`201`).
    func issueToken(_ session: LiveSession, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let (scopeText, label) = try readBody(request.body, required: true, keys: Self.tokenRequestKeys) { body throws(JSONReadError) in
            (try body.string("scope"), try body.optionalString("label"))
        }
        guard let scope = try enumValue(scopeText, field: "scope", as: TokenScope.self) else { throw .unprocessable("field 'scope' is required") }
        if let label {
            guard label.count <= TokenGrant.maximumLabelLength, label.utf8.count <= TokenGrant.maximumLabelBytes else {
                throw .unprocessable(
                    "field 'label' has \(label.count) characters and \(label.utf8.count) bytes, over the \(TokenGrant.maximumLabelLength) and \(TokenGrant.maximumLabelBytes) a label may have")
            }
            guard !label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw .unprocessable("field 'label' holds a control character; give a label of printable text")
            }
        }
        let named = label?.isEmpty == false ? label : nil
        let issued = try throughCore { () throws(SessionError) in try core.issueToken(for: session, scope: scope, label: named) }
        var writer = JSONWriter(capacity: 192)
        writer.beginObject()
        Self.writeMembers(of: issued.grant, into: &writer)
        writer.field("token", issued.secret)
        writer.endObject()
        return Self.json(201, writer.bytes)
    }

    /// `GET /v1/sessions/{id}/tokens`: the extra tokens, without their secrets.
    func listTokens(_ session: LiveSession) throws(APIError) -> HTTPResponse {
        let grants = try throughCore { () throws(SessionError) in try core.tokens(of: session) }
        var writer = JSONWriter(capacity: 32 + grants.count * 96)
        writer.beginObject()
        writer.key("tokens")
        writer.beginArray()
        for grant in grants {
            writer.beginObject()
            Self.writeMembers(of: grant, into: &writer)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return Self.json(200, writer.bytes)
    }

    /// `DELETE /v1/sessions/{id}/tokens/{token}`: `204`.
    func revokeToken(_ grantID: String, of session: LiveSession) throws(APIError) -> HTTPResponse {
        try throughCore { () throws(SessionError) in try core.revokeToken(grantID, of: session) }
        return HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
    }

    /// `GET /v1/sessions/{id}/access`: `{"scope": "owner"}`, or an extra token's scope and id.
    func access(_ exchange: Exchange) -> HTTPResponse {
        var writer = JSONWriter(capacity: 48)
        writer.beginObject()
        if let grant = exchange.grant {
            writer.field("scope", grant.scope.rawValue)
            writer.field("token", grant.id)
        } else {
            writer.field("scope", "owner")
        }
        writer.endObject()
        return Self.json(200, writer.bytes)
    }

    /// `"id", "scope", "label"?, "createdAt"` of a grant.
    private static func writeMembers(of grant: TokenGrant, into writer: inout JSONWriter) {
        writer.field("id", grant.id)
        writer.field("scope", grant.scope.rawValue)
        if let label = grant.label { writer.field("label", label) }
        writer.field("createdAt", grant.createdAt)
    }
}
