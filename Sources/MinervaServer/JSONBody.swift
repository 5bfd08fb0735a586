import MinervaJSON

/// Reads a request body that must be a JSON object carrying only the fields in `keys`.
/// - Parameters:
///   - bytes: the raw body; empty (or white space) reads as `{}` unless `required`.
///   - required: whether the operation has required fields, so that an empty body is `400`.
///   - keys: the fields the body may carry; any other is refused, naming it and the nearest known one.
///   - read: reads the fields.
/// - Returns: what `read` returns.
/// - Throws: `400` when the body is not a JSON object, lacks a required field, has a field of
///   the wrong type or an unknown field.
func readBody<T>(_ bytes: [UInt8], required: Bool, keys: JSONKeys, _ read: (JSONObjectReader) throws(JSONReadError) -> T) throws(APIError) -> T {
    let value = JSONValue.object(try readObjectBody(bytes, required: required))
    do throws(JSONReadError) {
        return try read(JSONObjectReader(value, keys: keys))
    } catch {
        throw APIError(error)
    }
}

/// Reads a request body that must be a JSON object, whatever its members (a node's UI state).
/// - Parameters:
///   - bytes: the raw body; empty (or white space) reads as `{}` unless `required`.
///   - required: whether an empty body is `400`.
/// - Throws: `400` when the body is missing or not a JSON object.
func readObjectBody(_ bytes: [UInt8], required: Bool) throws(APIError) -> [String: JSONValue] {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
        guard !required else { throw .invalidRequest("a JSON object body is required") }
        return [:]
    }
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes)
    } catch {
        throw .invalidRequest("the body is not valid JSON: \(error)")
    }
    guard case .object(let members) = value else { throw .invalidRequest("the body must be a JSON object, not \(value.typeName)") }
    return members
}

extension APIError {
    /// A body that could not be read: always `400`, naming the field at fault.
    init(_ error: JSONReadError) {
        self = .invalidRequest(error.description)
    }
}
