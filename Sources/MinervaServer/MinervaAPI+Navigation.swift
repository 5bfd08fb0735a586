import MicroHTTP
import MinervaSessions

extension MinervaAPI {
    /// `POST /v1/sessions/{id}/{operation}`: runs one navigation operation and answers the new state.
    func perform(_ operation: Route.Operation, on session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError)
        -> HTTPReply
    {
        let command = parse { () throws(APIError) in try SessionCommand(operation, bytes: request.body) }
        let id = session.id
        return try mutate(session, request, exchange, command: command) { state in
            Self.json(200, StateDocument.encode(sessionID: id, state: state), headers: [Self.etag(state.version)])
        }
    }
}
