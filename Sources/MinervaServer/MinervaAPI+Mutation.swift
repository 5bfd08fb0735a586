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
        let keyResult = parse { () throws(APIError) in try IdempotencyKey(request) }
        let now = configuration.now()
        return try session.state.withLock { state throws(APIError) in
            if case .success(let key?) = keyResult,
                let stored = try state.idempotency.answer(for: key.key, fingerprint: key.fingerprint, now: now)
            {
                return stored
            }
            try ifMatch.check(version: state.version)
            let key = try keyResult.get()
            let command = try parsed.get()
            guard let storage else {
                let response = try apply(&state, command)
                if let key { state.idempotency.remember(key.key, fingerprint: key.fingerprint, response: response, now: now) }
                return response
            }
            // Durable before the answer: change a copy, store what changed, then keep it.
            var next = state
            let response = try apply(&next, command)
            var forgottenKeys: [String] = []
            if let key { forgottenKeys = next.idempotency.remember(key.key, fingerprint: key.fingerprint, response: response, now: now) }
            try persist(
                SessionSnapshot.change(of: session, from: state, to: next, rememberedKey: key?.key, forgottenKeys: forgottenKeys, lastUsed: now),
                storage: storage)
            state = next
            return response
        }
    }
}

extension MinervaAPI {
    /// Writes a session's change to storage.
    /// - Throws: `503` when storage refuses; the caller then keeps the old state.
    func persist(_ change: SessionChange, storage: any SessionStorage) throws(APIError) {
        do {
            try storage.save(change)
        } catch {
            logger.error("could not store session \(change.id): \(error)")
            throw .unavailable("the change could not be stored; nothing was changed, retry later")
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
