import Foundation

/// The preconditions one change sends with every attempt.
struct ChangeHeaders: Sendable {
    /// `If-Match`: the version the client last saw.
    let ifMatch: String
    /// `Idempotency-Key`: the same for every attempt of one change.
    let key: String
}

extension MinervaSession {
    /// Sends one change, retried by the connection's policy with the same headers, and keeps the
    /// state it answers.
    /// - Parameter request: one attempt of the change.
    /// - Returns: the new state.
    func change(
        _ request: @Sendable (Client, String, ChangeHeaders) async throws -> Components.Responses.State
    ) async throws -> SessionState {
        let headers = ChangeHeaders(ifMatch: ifMatch, key: UUID().uuidString)
        let answer = try await connection.retryPolicy.run { try await request(client, id, headers) }
        let state = try answer.body.json.value1
        received(state)
        return state
    }
}
