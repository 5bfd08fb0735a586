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

    private func qualified(_ name: String, _ path: String?) -> String {
        path.map { "\($0).\(name)" } ?? name
    }

    // `path` arguments are autoclosures: they name a place only for an error message, and
    // building them for every item of a long list costs more than reading the item.

    /// Any JSON value of a field, `nil` when absent or `null`.
    func value(_ name: String) -> JSONValue? {
        present(name)
    }

    /// An optional string field.
    /// - Parameter path: where this object sits in the body, for error messages.
    func string(_ name: String, path: @autoclosure () -> String? = nil) throws(APIError) -> String? {
        guard let value = present(name) else { return nil }
        guard let text = value.stringValue else { throw wrongType(qualified(name, path()), "a string", value) }
        return text
    }

    /// A required string field.
    func requiredString(_ name: String, path: @autoclosure () -> String? = nil) throws(APIError) -> String {
        guard let text = try string(name, path: path()) else { throw .invalidRequest("field '\(qualified(name, path()))' is required") }
        return text
    }

    /// An optional boolean field.
    func bool(_ name: String) throws(APIError) -> Bool? {
        guard let value = present(name) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(name, "a boolean", value) }
        return flag
    }

    /// An optional object field of arbitrary JSON values (screen params); absent is empty.
    func params(_ name: String = "params", path: @autoclosure () -> String? = nil) throws(APIError) -> [String: JSONValue] {
        guard let value = present(name) else { return [:] }
        guard let object = value.objectValue else { throw wrongType(qualified(name, path()), "an object", value) }
        return object
    }

    /// An optional object field, read as a body of its own.
    func object(_ name: String) throws(APIError) -> RequestBody? {
        guard let value = present(name) else { return nil }
        guard let object = value.objectValue else { throw wrongType(name, "an object", value) }
        return RequestBody(members: object)
    }

    /// An optional array of strings.
    func strings(_ name: String) throws(APIError) -> [String]? {
        guard let value = present(name) else { return nil }
        guard let elements = value.arrayValue else { throw wrongType(name, "an array of strings", value) }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else { throw wrongType("\(name)[\(index)]", "a string", element) }
            result.append(text)
        }
        return result
    }

    /// An optional array of objects, each read as a body of its own.
    func objects(_ name: String, path: @autoclosure () -> String? = nil) throws(APIError) -> [RequestBody]? {
        guard let value = present(name) else { return nil }
        guard let elements = value.arrayValue else { throw wrongType(qualified(name, path()), "an array", value) }
        var result: [RequestBody] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let object = element.objectValue else { throw wrongType("\(qualified(name, path()))[\(index)]", "an object", element) }
            result.append(RequestBody(members: object))
        }
        return result
    }

    private init(members: [String: JSONValue]) {
        self.members = members
    }
}
