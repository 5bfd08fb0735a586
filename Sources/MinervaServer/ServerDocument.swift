import MinervaJSON

/// `GET /v1/server`'s answer: what this server offers besides the app, so that a client shows
/// only what it can use without trying it first (the web client hides its Analytics button on a
/// server without an admin token, whose admin paths answer `404`).
enum ServerDocument {
    /// `{"adminAnalytics": …}`: whether `/v1/admin/analytics/…` answers (the server has an
    /// admin token). That an admin token exists says no more than those paths' `404` already does.
    static func encode(_ configuration: ServerConfiguration) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("adminAnalytics", configuration.adminToken != nil)
        writer.endObject()
        return writer.bytes
    }
}
