import OpenAPIRuntime

extension [String: OpenAPIValueContainer] {
    /// The parameters as a request body's `params`, or nil when there are none.
    func payload() throws -> OpenAPIObjectContainer? {
        isEmpty ? nil : try OpenAPIObjectContainer(unvalidatedValue: mapValues(\.value))
    }
}
