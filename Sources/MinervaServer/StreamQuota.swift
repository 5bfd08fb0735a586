import MicroHTTP

/// Event streams open per session and per client address (an IPv6 /64), capped so that cheap
/// sessions cannot become the next way to hold every connection: a stream holds its connection
/// for as long as the client listens.
struct StreamQuota {
    /// Streams of one session at most (0: no cap).
    let perSession: Int
    /// Streams from one client address group at most (0: no cap).
    let perAddress: Int
    private var sessions: [String: Int] = [:]
    /// Of ``sessions``, those that extra tokens hold: one fewer than ``perSession`` at most, so
    /// that read-only followers never take the owner's last place.
    private var byExtraTokens: [String: Int] = [:]
    private var addresses: [ClientAddressGroup: Int] = [:]

    /// Creates an empty quota.
    init(perSession: Int, perAddress: Int) {
        self.perSession = perSession
        self.perAddress = perAddress
    }

    /// Takes a place for a new stream.
    /// - Parameters:
    ///   - session: the session's id.
    ///   - address: the client's address group (`nil` for a request made in process).
    ///   - extraToken: whether the stream follows with an extra token, not the owner's.
    /// - Returns: `nil` when the stream may open (the place is taken), else which cap it would pass.
    mutating func take(session: String, address: ClientAddressGroup?, extraToken: Bool = false) -> APIError? {
        if perSession > 0, sessions[session, default: 0] >= perSession {
            return Self.refusal("this session already has \(perSession) event streams open; close one, or follow it with long polls")
        }
        if extraToken, perSession > 1, byExtraTokens[session, default: 0] >= perSession - 1 {
            return Self.refusal(
                "extra tokens of this session already hold \(perSession - 1) event streams, all but the place kept for its owner; close one, or follow it with long polls")
        }
        if perAddress > 0, let address, addresses[address, default: 0] >= perAddress {
            return Self.refusal("your address already has \(perAddress) event streams open; close one, or follow sessions with long polls")
        }
        sessions[session, default: 0] += 1
        if extraToken { byExtraTokens[session, default: 0] += 1 }
        if let address { addresses[address, default: 0] += 1 }
        return nil
    }

    /// Gives back the place of a stream that ended.
    mutating func release(session: String, address: ClientAddressGroup?, extraToken: Bool = false) {
        Self.decrement(&sessions, session)
        if extraToken { Self.decrement(&byExtraTokens, session) }
        if let address { Self.decrement(&addresses, address) }
    }

    /// The streams open of one session.
    func count(session: String) -> Int { sessions[session, default: 0] }

    /// The streams open in all.
    /// - Complexity: O(sessions with a stream open).
    var open: Int { sessions.values.reduce(0, +) }

    private static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key) {
        guard let count = counts[key] else { return }
        counts[key] = count > 1 ? count - 1 : nil
    }

    private static func refusal(_ message: String) -> APIError {
        APIError(status: 429, code: "rate_limited", message: message, headers: [APIError.Header(name: "Retry-After", value: "5")])
    }
}
