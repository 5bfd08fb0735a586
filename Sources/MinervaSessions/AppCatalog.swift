import Locking
import Logging
import MinervaCoordinator
import MinervaModel

/// Every app description this process ran or read from the store, by version: a session runs
/// the app of the version it records until it moves.
final class AppCatalog: Sendable {
    private let byVersion: Locked<[String: AppDescription]>
    private let store: any SessionStorage
    private let logger: Logger

    init(_ served: ServedApp, store: any SessionStorage, logger: Logger) {
        byVersion = Locked([:])
        self.store = store
        self.logger = logger
        add(served)
    }

    /// Adds the apps this process runs from now on: outside the experiments, and each variant's.
    func add(_ served: ServedApp) {
        byVersion.withLock { apps in
            apps[served.version] = served.app.outsideExperiments
            for (app, version) in served.variantApps { apps[version] = app }
        }
    }

    /// The app description a session that records `version` runs: the current one, one this
    /// process ran, or one the store keeps. `nil` for a version no store kept (a session stored
    /// by a release that kept no descriptions; it is served by the current app until it moves).
    /// - Throws: `unavailable` when the store cannot be read.
    func app(ofVersion version: String) throws(SessionError) -> AppDescription? {
        if let app = byVersion.withLock({ $0[version] }) { return app }
        let document: [UInt8]?
        do {
            document = try store.appDescription(version: version)
        } catch {
            logger.error("could not read app version \(version) from storage: \(error)")
            throw .storeUnreadable
        }
        guard let document else { return nil }
        do throws(AppDescriptionError) {
            let app = try AppDescription.parse(document, source: "app version \(version.prefix(12)) in the store", served: true)
            byVersion.withLock { $0[version] = app }
            return app
        } catch {
            logger.error("the store keeps app version \(version) in a form this server cannot read: \(error)")
            return nil
        }
    }
}
