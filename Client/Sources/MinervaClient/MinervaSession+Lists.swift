import Foundation

extension MinervaSession {
    /// Replaces a node's list; the server answers the diff from the previous version. This is a
    /// change of the session: its version grows (and ``version`` with it), without events but
    /// `listChanged`.
    /// - Parameters:
    ///   - sections: the whole new list.
    ///   - node: the node that carries the list.
    /// - Returns: the new list version and the diff from the previous one.
    /// - Throws: ``MinervaError``: 404 (no such node), 412, 422 (duplicate or empty ids, too
    ///   many items).
    @discardableResult
    public func putList(_ sections: [ListSection], on node: String) async throws -> ListPutAnswer {
        try await changeList(.putList(sections, on: node))
    }

    /// Changes some of a node's cells, by id, and keeps the rest; the server answers the diff
    /// from the previous version, as for ``putList(_:on:)``. This is a change of the session.
    /// - Parameters:
    ///   - patch: the cells deleted, upserted and moved.
    ///   - node: the node that carries the list.
    /// - Returns: the new list version and the diff from the previous one.
    /// - Throws: ``MinervaError``: 400 (an empty patch), 404 (no such node, or no list yet), 412,
    ///   422 (a cell or section the list does not have, a new cell without a place).
    @discardableResult
    public func patchList(_ patch: ListPatch, on node: String) async throws -> ListPutAnswer {
        try await changeList(.patchList(patch, on: node))
    }

    /// Sends a list `PUT` or `PATCH`, retried with one idempotency key, and answers its list.
    private func changeList(_ request: ChangeRequest) async throws -> ListPutAnswer {
        let headers = ChangeHeaders(ifMatch: ifMatch, key: UUID().uuidString)
        let answer = try await connection.retryPolicy.run { try await send(request, headers: headers) }
        guard let list = answer.list else { throw MinervaError.unexpectedAnswer(to: request) }
        if let version = answer.version { saw(version: version) }
        return list
    }

    /// Reads a node's list with the diff from an earlier version.
    /// - Parameters:
    ///   - node: the node that carries the list.
    ///   - since: the list version the client shows; the previous version when nil, 0 for the
    ///     empty list.
    /// - Returns: the list and the diff from `since`.
    /// - Throws: ``MinervaError``: 404 (no such node, or no list yet), 422 (`since` ahead of the
    ///   list).
    public func list(of node: String, since: Int? = nil) async throws -> ListPage {
        try await listPage(of: node, since: since).page
    }

    /// A node's list page with the session version it was read at (its `ETag`).
    func listPage(of node: String, since: Int?) async throws -> (page: ListPage, sessionVersion: Int?) {
        let answer = try await connection.retryPolicy.run {
            try await client.getList(path: .init(id: id, node: node), query: .init(since: since.map(Int64.init))).ok
        }
        return (try answer.body.json, Int(answer.headers.eTag.trimmingCharacters(in: ["\""])))
    }
}
