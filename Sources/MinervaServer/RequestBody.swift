import MinervaCoordinator
import MinervaJSON

/// A JSON object body with typed field access; wrong types are `400`, bad enum values `422`.
/// `null` counts as absent and unknown fields are ignored.
struct RequestBody {
    private let members: [String: JSONValue]

    /// Parses a body that must be a JSON object; an empty body is `{}` unless `required`.
    /// - Parameters:
    ///   - bytes: the raw body.
    ///   - required: whether the operation has required fields, so that an empty body is `400`.
    init(_ bytes: [UInt8], required: Bool) throws(APIError) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            guard !required else { throw .invalidRequest("a JSON object body is required") }
            members = [:]
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw .invalidRequest("the body is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw .invalidRequest("the body must be a JSON object, not \(value.typeName)")
        }
        members = object
    }

    private func present(_ name: String) -> JSONValue? {
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    private func wrongType(_ name: String, _ expected: String, _ value: JSONValue) -> APIError {
        .invalidRequest("field '\(name)' must be \(expected), not \(value.typeName)")
    }

    /// An optional string field.
    func string(_ name: String) throws(APIError) -> String? {
        guard let value = present(name) else { return nil }
        guard let text = value.stringValue else { throw wrongType(name, "a string", value) }
        return text
    }

    /// A required string field.
    func requiredString(_ name: String) throws(APIError) -> String {
        guard let text = try string(name) else { throw .invalidRequest("field '\(name)' is required") }
        return text
    }

    /// An optional boolean field.
    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let value = present(name) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(name, "a boolean", value) }
        return flag
    }

    /// An optional object field of arbitrary JSON values (screen params); absent is empty.
    func params(_ name: String = "params") throws(APIError) -> [String: JSONValue] {
        guard let value = present(name) else { return [:] }
        guard let object = value.objectValue else { throw wrongType(name, "an object", value) }
        return object
    }

    /// An optional array of objects, each read as a body of its own.
    func objects(_ name: String) throws(APIError) -> [RequestBody]? {
        guard let value = present(name) else { return nil }
        guard let elements = value.arrayValue else { throw wrongType(name, "an array", value) }
        var result: [RequestBody] = []
        for (index, element) in elements.enumerated() {
            guard let object = element.objectValue else { throw wrongType("\(name)[\(index)]", "an object", element) }
            result.append(RequestBody(members: object))
        }
        return result
    }

    private init(members: [String: JSONValue]) {
        self.members = members
    }
}

/// Reads an enum value; an unknown one is `422`, naming the allowed values.
func enumValue<T: RawRepresentable & CaseIterable>(_ text: String?, field: String, as: T.Type) throws(APIError) -> T?
where T.RawValue == String {
    guard let text else { return nil }
    guard let value = T(rawValue: text) else {
        let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
        throw .unprocessable("field '\(field)' is \(Excerpt(text)); use one of: \(allowed)")
    }
    return value
}
