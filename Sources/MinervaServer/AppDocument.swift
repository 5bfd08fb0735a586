import MinervaCoordinator
import MinervaSessions

/// `GET /v1/app`'s answer: the app description's canonical document (see
/// ``MinervaCoordinator/AppDescription/document(version:)``) with its version.
enum AppDocument {
    /// `GET /v1/app`'s answer and the app's version (``MinervaSessions/AppVersion/of(_:)``).
    static func encode(_ app: AppDescription) -> (document: [UInt8], version: String) {
        let version = AppVersion.of(app)
        return (app.document(version: version), version)
    }
}
