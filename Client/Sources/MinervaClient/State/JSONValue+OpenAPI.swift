import OpenAPIRuntime

// The generated layer carries free-form JSON (a flow's result value, a node's UI state) in the
// runtime's containers.

extension OpenAPIValueContainer {
    /// The same JSON value.
    init(_ value: JSONValue) throws {
        try self.init(unvalidatedValue: value.plainValue)
    }
}

extension OpenAPIObjectContainer {
    /// The same JSON object.
    init(_ object: [String: JSONValue]) throws {
        try self.init(unvalidatedValue: object.mapValues(\.plainValue))
    }
}

extension Params {
    /// The parameters as a request body's `params`, or nil when there are none.
    func container() throws -> OpenAPIObjectContainer? {
        isEmpty ? nil : try OpenAPIObjectContainer(self)
    }
}

extension JSONValue {
    /// The value as the runtime's containers take it: nil, Bool, Int, Double, String, arrays and
    /// dictionaries of those.
    var plainValue: (any Sendable)? {
        switch self {
        case .null: nil
        case .bool(let value): value
        case .int(let value): value
        case .double(let value): value
        case .string(let value): value
        case .array(let value): value.map(\.plainValue)
        case .object(let value): value.mapValues(\.plainValue)
        }
    }
}
