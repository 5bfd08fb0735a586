import Foundation

/// What a restore brought back (``MinervaSession/restore(version:)``): the version it went back
/// to, the nodes whose list came back with it, and those whose list of then is no longer kept.
public struct RestoredLists: Hashable, Sendable {
    /// The version the session went back to.
    public var version: Int
    /// Nodes whose list came back.
    public var lists: [String]
    /// Nodes whose list of then is no longer kept (they came back without one).
    public var listsDropped: [String]
}

extension MinervaSession {
    /// The state document as it was when `version` was current: time travel for debugging and
    /// support. Every version from the one before the oldest kept event is served.
    /// - Parameter version: a version from 1 to the current one.
    /// - Returns: the state then.
    /// - Throws: ``MinervaError`` 404 when the version is no longer kept or ahead of the session
    ///   (its message names the versions kept), 401 when the session is gone.
    public func state(at version: Int) async throws -> SessionState {
        try await connection.retryPolicy.run {
            try await client.getVersion(path: .init(id: id, version: String(version))).ok.body.json.value1
        }
    }

    /// Makes an earlier version the current state again, as a new version (itself undoable);
    /// node ids of that version come back, flags stay as they are now.
    /// - Parameter version: a version ``state(at:)`` serves.
    /// - Returns: the new state and what came back of the lists (a list whose content is no
    ///   longer kept comes back without its list).
    /// - Throws: ``MinervaError``: 404 (version not kept), 409 (it shows a guarded screen whose
    ///   flag is not set now; `app_changed` when it shows a screen the app no longer has), 412.
    @discardableResult
    public func restore(version: Int) async throws -> (state: SessionState, restored: RestoredLists) {
        let headers = ChangeHeaders(ifMatch: ifMatch, key: UUID().uuidString)
        let answer = try await connection.retryPolicy.run {
            try await client.restore(
                path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key), body: .json(.init(version: version))
            ).ok.body.json
        }
        received(answer.value1)
        let restored = answer.value2.restored
        return (answer.value1, RestoredLists(version: restored.version, lists: restored.lists, listsDropped: restored.listsDropped))
    }
}
