import Foundation
import OpenAPIRuntime

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

extension [String: OpenAPIValueContainer] {
    /// The parameters as a request body's `params` (any of the generated payload types), or nil
    /// when there are none.
    func payload<Payload>() throws -> Payload? where Payload: ParamsPayload {
        isEmpty ? nil : Payload(additionalProperties: try OpenAPIObjectContainer(unvalidatedValue: mapValues(\.value)))
    }
}

/// The generated `params` payloads of the request bodies, which all wrap a JSON object.
protocol ParamsPayload {
    init(additionalProperties: OpenAPIObjectContainer)
}

extension Components.Schemas.NavigateRequest.ParamsPayload: ParamsPayload {}
extension Components.Schemas.PushRequest.ParamsPayload: ParamsPayload {}
extension Components.Schemas.PresentRequest.ParamsPayload: ParamsPayload {}
extension Components.Schemas.SetRootRequest.ParamsPayload: ParamsPayload {}
extension Components.Schemas.SetRootEntry.ParamsPayload: ParamsPayload {}
