import MicroHTTP
import MinervaCoordinator

extension MinervaAPI {
    /// `POST /v1/sessions/{id}/{operation}`: runs one navigation operation and answers the new state.
    ///
    /// The body is read before the lock is taken, but its errors are raised after the
    /// `If-Match` check so that `412` comes before `400`, as the contract orders them.
    func perform(_ operation: Route.Operation, on session: Session, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let command: Result<NavigationCommand, APIError>
        do throws(APIError) {
            command = .success(try NavigationCommand(operation, bytes: request.body))
        } catch {
            command = .failure(error)
        }
        let ifMatch = IfMatch(request.header("if-match"))
        return try session.state.withLock { state throws(APIError) in
            try ifMatch.check(version: state.version)
            let events = try command.get().apply(to: &state.tree)
            state.commit(events)
            return Self.json(200, StateDocument.encode(sessionID: session.id, state: state), headers: [Self.etag(state.version)])
        }
    }
}
