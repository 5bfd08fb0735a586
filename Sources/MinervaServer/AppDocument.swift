import Crypto
import MinervaCoordinator

/// `GET /v1/app`'s answer: the app description's canonical document (see
/// ``MinervaCoordinator/AppDescription/document(version:)``) with its version.
enum AppDocument {
    /// `GET /v1/app`'s answer and the app's version: the SHA-256 of the document without its
    /// version, which is canonical (screens by name, routes in file order), so reformatting the
    /// file or reordering its keys changes nothing.
    static func encode(_ app: AppDescription) -> (document: [UInt8], version: String) {
        let version = Self.version(of: app.document(version: nil))
        return (app.document(version: version), version)
    }

    /// The app's version: the SHA-256 of its document, in hex, recorded with every session.
    private static func version(of document: [UInt8]) -> String {
        SHA256.hash(data: document).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
