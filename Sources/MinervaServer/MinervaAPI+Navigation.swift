import MicroHTTP
import MinervaCoordinator

extension MinervaAPI {
    /// `POST /v1/sessions/{id}/{operation}`: runs one navigation operation and answers the new state.
    ///
    /// The body is read before the lock is taken, but its errors are raised after the
    /// `If-Match` check so that `412` comes before `400`, as the contract orders them. An
    /// operation that would take the session over its node limit is `409`.
    func perform(_ operation: Route.Operation, on session: Session, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let command = parse { () throws(APIError) in try NavigationCommand(operation, bytes: request.body) }
        return try mutate(session, request, parsed: command) { state, command throws(APIError) in
            var tree = state.tree
            let events = try command.apply(to: &tree)
            guard tree.nodes.count <= configuration.maxNodes else {
                throw .conflict("the session would hold \(tree.nodes.count) nodes, over its limit of \(configuration.maxNodes); pop or dismiss first")
            }
            metrics.nodes(changedBy: tree.nodes.count - state.tree.nodes.count)
            let finished = events.count { if case .finished = $0.kind { true } else { false } }
            metrics.events(removed: events.count - finished, finished: finished)
            state.tree = tree
            state.commit(events)
            return Self.json(200, StateDocument.encode(sessionID: session.id, state: state), headers: [Self.etag(state.version)])
        }
    }
}
