import MinervaModel
import MinervaSessions

extension APIError {
    /// The answer to a refusal of the session core: the one place where its errors become statuses.
    init(_ error: SessionError) {
        switch error.category {
        case .unauthorized: self = .unauthorized
        case .notFound: self = .notFound(error.description)
        case .invalid: self = .unprocessable(error.description)
        case .conflict: self = APIError(status: 409, code: error.code ?? "conflict", message: error.description)
        case .preconditionFailed(let current): self = .preconditionFailed(current: current)
        case .rateLimited(let retryAfter): self = .rateLimited(retryAfter: retryAfter)
        case .appChanged: self = APIError(status: 410, code: "app_changed", message: error.description)
        case .appVersionConflict: self = APIError(status: 409, code: "app_changed", message: error.description)
        case .unavailable(let retryAfter, let outcomeUnknown):
            let message =
                outcomeUnknown
                ? error.description + "; the change may still have been applied: retry with the same Idempotency-Key to learn its outcome"
                : error.description
            self = .unavailable(message, retryAfter: retryAfter)
        }
    }

    /// `403` to an extra token that may not do what the request asks; nothing changed.
    static func forbidden(_ need: AccessNeed, scope: TokenScope) -> APIError {
        let message =
            switch need {
            case .owner: "only the session's owner token (the one its creation answered) manages its tokens and deletes it; this token's scope is '\(scope.rawValue)'"
            case .read, .write: "this token may only read the session (scope '\(scope.rawValue)'): a change needs a 'write' token or the owner's"
            }
        return APIError(status: 403, code: "forbidden", message: message)
    }
}
