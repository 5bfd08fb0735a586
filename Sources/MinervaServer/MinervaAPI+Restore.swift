import MicroHTTP
import MinervaCoordinator

extension MinervaAPI {
    /// What ``restore()`` found in storage.
    public struct RestoreReport: Sendable {
        /// Sessions loaded and served again.
        public var loaded = 0
        /// Sessions dropped because they had expired while the server was down.
        public var expired = 0
        /// Sessions kept in storage but not served, with the reason (a changed app description, say).
        public var unreadable: [(id: String, reason: String)] = []
        /// Sessions served whose nodes show screens the app description no longer declares.
        public var unknownScreens: [(id: String, screens: [String])] = []
    }

    /// Loads the stored sessions and idempotency answers; call once before serving.
    /// - Returns: what was loaded, expired, or could not be read.
    /// - Throws: the storage's error when it cannot be read at all.
    public func restore() throws -> RestoreReport {
        guard let storage else { return RestoreReport() }
        var report = RestoreReport()
        let now = configuration.now()
        var expired: [String] = []
        for stored in try storage.loadSessions() {
            guard stored.lastUsed >= now - configuration.sessionTTL else {
                expired.append(stored.id)
                continue
            }
            let state: SessionState
            let olderFormat: Bool
            do throws(SnapshotError) {
                (state, olderFormat) = try SessionSnapshot.decode(stored, app: app, configuration: configuration)
            } catch {
                report.unreadable.append((stored.id, error.description))
                continue
            }
            let unknown = state.tree.unknownScreens
            if !unknown.isEmpty { report.unknownScreens.append((stored.id, unknown)) }
            let session = Session(
                id: stored.id, tokenHash: stored.tokenHash, state: state, rateLimit: configuration.rateLimit,
                rateBurst: configuration.rateBurst, lastUsed: stored.lastUsed)
            guard store.insert(session) else { break }
            if olderFormat {
                // Written before events, lists and answers had records of their own: write it
                // whole in today's format, so that later changes can be written alone.
                try storage.save(SessionSnapshot.wholeChange(of: session, state, lastUsed: stored.lastUsed))
            }
            metrics.nodes(changedBy: state.tree.nodes.count)
            report.loaded += 1
        }
        try storage.delete(expired)
        report.expired = expired.count
        metrics.sessions(store.count)
        let creations = try storage.loadCreations()
        self.creations.withLock { cache in
            for creation in creations where creation.storedAt >= now - configuration.idempotencyLifetime {
                cache.remember(
                    creation.key, fingerprint: creation.fingerprint,
                    response: HTTPResponse(status: creation.status, headers: creation.headers, body: creation.body), now: creation.storedAt)
            }
        }
        return report
    }
}
