import Crypto
public import MinervaCoordinator

/// App versions: what every session records of the app it runs.
public enum AppVersion {
    /// An app description's version: the SHA-256, in hex, of its canonical document without its
    /// experiments (reformatting the file or reordering its keys changes nothing, and neither does
    /// an experiment's allocation). It is the version of the app a session in no experiment runs;
    /// each variant's app, which carries what the session runs of the experiment, has its own.
    public static func of(_ app: AppDescription) -> String {
        let digest = SHA256.hash(data: app.outsideExperiments.document(version: nil))
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
