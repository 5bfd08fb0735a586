import MicroHTTP
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// `POST /v1/sessions/{id}/{operation}`: runs one navigation operation and answers the new state.
    func perform(_ operation: NavigationOperation, on session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError)
        -> HTTPReply
    {
        let command = parse { () throws(APIError) in try SessionCommand(operation, bytes: request.body) }
        return try mutateAnsweringState(session, request, exchange, command: command)
    }

    /// `…/nodes/{node}/params`, `…/ui`, `…/presentation`, `…/results/{screen}`: runs one
    /// operation on a node (``NodeOperation``) and answers the new state; what is so already
    /// changes nothing (equal params, the same UI state, the detent the sheet rests at).
    func perform(
        _ operation: NodeOperation, node: String, screen: String? = nil, on session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange
    ) throws(APIError) -> HTTPReply {
        let command = parse { () throws(APIError) in try SessionCommand(operation, node: node, screen: screen, bytes: request.body) }
        return try mutateAnsweringState(session, request, exchange, command: command)
    }

    /// Runs a mutation whose answer is the session's new state document (with its `ETag`).
    private func mutateAnsweringState(
        _ session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange, command: Result<SessionCommand, APIError>
    ) throws(APIError) -> HTTPReply {
        let id = session.id
        return try mutate(session, request, exchange, command: command) { state in
            Self.json(200, StateDocument.answer(sessionID: id, state: state), headers: [Self.etag(state.version)])
        }
    }
}
