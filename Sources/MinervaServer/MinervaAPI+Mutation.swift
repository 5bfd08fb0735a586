import MicroHTTP
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// Hands a mutation to the session core: answered at once when the outcome is known, else
    /// (the write is with storage) by a deferred answer once it is stored.
    ///
    /// An `If-Match` that is not an entity tag is `400` at once (it cannot be compared). A
    /// malformed header or body is `400` after `If-Match` (`412`). A well-formed change: a
    /// remembered `Idempotency-Key` answers before anything else, then a device's number the
    /// session applied already (``ChangeHeaders``), with the state document whatever the endpoint;
    /// then `If-Match` (`412`); then the step's refusals, a gap in the device's numbers first.
    /// - Parameters:
    ///   - command: the body read into a command, or its error.
    ///   - answersOtherThanState: whether `answer` is something else than the state document (a
    ///     list's diff, a restore's document): the answer to an applied device number is then the
    ///     state document (``stateAnswer(sessionID:state:)``), as it is for every endpoint.
    ///   - answer: the answer built from the state the mutation produced.
    func mutate(
        _ session: LiveSession, _ request: HTTPRequest, _ exchange: Exchange, command: Result<SessionCommand, APIError>,
        answersOtherThanState: Bool = false, answer: @escaping @Sendable (SessionState) -> HTTPResponse
    ) throws(APIError) -> HTTPReply {
        let precondition = try IfMatch(request.header("if-match"), name: "If-Match").precondition
        let key: IdempotencyKey?
        let headers: ChangeHeaders
        let parsed: SessionCommand
        do throws(APIError) {
            key = try IdempotencyKey.parse(request)
            headers = try ChangeHeaders(request)
            parsed = try command.get()
        } catch {
            try throughCore { () throws(SessionError) in try core.checkPrecondition(session, precondition) }
            throw error
        }
        if let version = headers.clientModelVersion, version != ModelVersion.current { metrics.changeFromOtherModel() }
        let mutation = Mutation(
            command: parsed, precondition: precondition, idempotencyKey: key, numbered: headers.numbered, deviceTime: headers.deviceTime,
            appliedAnswer: answersOtherThanState ? Self.stateAnswer : nil
        ) { StoredAnswer(answer($0)) }
        var deferred: HTTPDeferred?
        let outcome = core.mutate(session, mutation) {
            let later = exchange.deferred(fallback: Exchange.shuttingDownDuringWrite)
            deferred = later
            return { outcome in exchange.complete(later, with: self.response(to: outcome)) }
        }
        guard let outcome else { return .deferred(deferred!) }
        return .response(response(to: outcome))
    }

    /// The answer to a mutation's outcome, naming the model version whose step answered it
    /// (`Minerva-Model-Version`); its events are counted.
    private func response(to outcome: Result<MutationResult, SessionError>) -> HTTPResponse {
        var response: HTTPResponse
        switch outcome {
        case .success(let result) where result.replayed:
            response = result.answer.replayResponse
        case .success(let result):
            metrics.events(result.events)
            response = result.answer.response
        case .failure(let error):
            response = Self.errorResponse(APIError(error))
        }
        response.headers.append(Self.modelVersionHeader)
        return response
    }

    /// The state document of a session, with its `ETag`: the answer to a device's number the
    /// session applied already, whatever the endpoint.
    @Sendable private static func stateAnswer(sessionID: String, state: SessionState) -> StoredAnswer {
        StoredAnswer(json(200, StateDocument.answer(sessionID: sessionID, state: state), headers: [etag(state.version)]))
    }

    /// `Minerva-Model-Version`, the version of the model whose step answers this server's changes.
    private static let modelVersionHeader = (name: "Minerva-Model-Version", value: String(ModelVersion.current))
}

/// Reads a body into a result, so that its errors can be raised after the `If-Match` check.
func parse<Command>(_ read: () throws(APIError) -> Command) -> Result<Command, APIError> {
    do throws(APIError) {
        return .success(try read())
    } catch {
        return .failure(error)
    }
}
