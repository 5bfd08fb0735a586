import MinervaJSON
import MinervaModel

/// `GET /v1/server`'s answer: what this server offers besides the app, so that a client shows
/// only what it can use without trying it first (the web client hides its Analytics button on a
/// server without an admin token, whose admin paths answer `404`), and what a client needs to
/// predict a change's answer: the model version the server's step runs and the limits it checks.
enum ServerDocument {
    /// `{"adminAnalytics", "modelVersion", "limits"}`. That an admin token exists says no more
    /// than the admin paths' `404` already does.
    static func encode(_ configuration: ServerConfiguration) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("adminAnalytics", configuration.adminToken != nil)
        writer.field("modelVersion", ModelVersion.current)
        writer.key("limits")
        configuration.sessions.limits.write(into: &writer)
        writer.endObject()
        return writer.bytes
    }
}
