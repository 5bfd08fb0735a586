import OpenAPIRuntime

/// An attempt's error, as the caller should see it, and whether it is worth retrying.
struct AttemptFailure {
    /// The error to throw: an answer's ``MinervaError`` unwrapped from its `ClientError`.
    let error: any Error

    init(_ error: any Error) {
        if let clientError = error as? ClientError, let answer = clientError.underlyingError as? MinervaError {
            self.error = answer
        } else {
            self.error = error
        }
    }

    /// Whether another attempt may succeed: the server could not be reached, or asked to wait.
    var isRetryable: Bool { retryDelay(default: .zero) != nil }

    /// How long to wait before retrying, or nil when the error is final.
    /// - Parameter delay: the policy's wait when the server named none.
    func retryDelay(default delay: Duration) -> Duration? {
        switch error {
        case let answer as MinervaError:
            guard answer.status == 429 || answer.status == 503 else { return nil }
            return answer.retryAfter ?? delay
        case is CancellationError, is DecodingError:
            return nil
        case let clientError as ClientError where clientError.underlyingError is DecodingError:
            return nil
        default:
            return delay
        }
    }
}
