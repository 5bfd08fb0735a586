import OpenAPIRuntime

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
