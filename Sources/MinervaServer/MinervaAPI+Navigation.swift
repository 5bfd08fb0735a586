import MicroHTTP
import MinervaJSON
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

    /// `PATCH /v1/sessions/{id}/nodes/{node}/params {"set"?, "unset"?}`: changes a node's params
    /// in place (`paramsChanged`) and answers the new state; equal params change nothing.
    func updateParams(_ node: String, on session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        let command = parse { () throws(APIError) in
            try readBody(request.body, required: true, keys: Self.paramsKeys) { body throws(JSONReadError) in
                SessionCommand.updateParams(node: node, set: try body.optionalObject("set") ?? [:], unset: try body.optionalStrings("unset") ?? [])
            }
        }
        return try mutateAnsweringState(session, request, exchange, command: command)
    }

    /// `PUT /v1/sessions/{id}/nodes/{node}/ui {…}`: replaces a node's UI state (`uiChanged`) and
    /// answers the new state; the same object again changes nothing.
    func putUI(_ node: String, on session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        let command = parse { () throws(APIError) in SessionCommand.putUI(node: node, ui: try readObjectBody(request.body, required: true)) }
        return try mutateAnsweringState(session, request, exchange, command: command)
    }

    /// `POST /v1/sessions/{id}/nodes/{node}/presentation {"selected"?, "dismissible"?}`: the user
    /// moved a sheet to another detent, or the app lets or stops the user swiping the node away
    /// (`presentationChanged`); answers the new state. What is so already changes nothing.
    func changePresentation(_ node: String, on session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange) throws(APIError) -> HTTPReply {
        let command = parse { () throws(APIError) in
            try readBody(request.body, required: true, keys: Self.presentationKeys) { body throws(JSONReadError) in
                let selected = try body.optionalString("selected")
                let dismissible = try body.optionalBool("dismissible")
                guard selected != nil || dismissible != nil else { throw body.error("give 'selected' (a detent), 'dismissible', or both") }
                return SessionCommand.changePresentation(node: node, selected: selected, dismissible: dismissible)
            }
        }
        return try mutateAnsweringState(session, request, exchange, command: command)
    }

    /// The members of a `POST …/presentation` body.
    private static let presentationKeys: JSONKeys = ["selected", "dismissible"]

    /// `DELETE /v1/sessions/{id}/nodes/{node}/results/{screen}`: the parent's client took the
    /// result a flow of `screen` left (`resultConsumed`); answers the new state.
    func consumeResult(
        _ screen: String, of node: String, on session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange
    ) throws(APIError) -> HTTPReply {
        try mutateAnsweringState(session, request, exchange, command: .success(.consumeResult(node: node, screen: screen)))
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

    /// The members of a `PATCH …/params` body.
    private static let paramsKeys: JSONKeys = ["set", "unset"]
}
