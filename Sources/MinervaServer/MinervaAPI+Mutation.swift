import MicroHTTP
import MinervaCoordinator

extension MinervaAPI {
    /// Runs one mutation of a session under its lock, in the contract's order: a remembered
    /// `Idempotency-Key` answers at once; then `412`; then the body's own errors (`400`); then
    /// `apply`, which either throws and changes nothing or updates the state and answers.
    /// - Parameters:
    ///   - parsed: the body as read before the lock was taken.
    ///   - apply: changes the state and builds the answer.
    func mutate<Command>(
        _ session: Session, _ request: HTTPRequest, parsed: Result<Command, APIError>,
        apply: (inout SessionState, Command) throws(APIError) -> HTTPResponse
    ) throws(APIError) -> HTTPResponse {
        let ifMatch = IfMatch(request.header("if-match"))
        let key = try IdempotencyKey(request)
        let now = configuration.now()
        return try session.state.withLock { state throws(APIError) in
            if let key, let stored = try state.idempotency.answer(for: key.key, fingerprint: key.fingerprint, now: now) {
                return stored
            }
            try ifMatch.check(version: state.version)
            let response = try apply(&state, try parsed.get())
            if let key {
                state.idempotency.remember(key.key, fingerprint: key.fingerprint, response: response, now: now)
            }
            return response
        }
    }
}

/// Reads a body into a result, so that its errors can be raised after the `If-Match` check.
func parse<Command>(_ read: () throws(APIError) -> Command) -> Result<Command, APIError> {
    do throws(APIError) {
        return .success(try read())
    } catch {
        return .failure(error)
    }
}
