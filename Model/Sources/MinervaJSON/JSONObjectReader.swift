/// Typed reads of a JSON object's members, refusing members it does not know.
///
/// The object's names are checked once, when the reader is made, against the ``JSONKeys``
/// it may carry: an unknown one is an error naming it and the nearest known name, so that a
/// typo never does something else quietly. `null` counts as absent. Every error carries the
/// member's path from the document's root: nested objects are read inside closures (see
/// ``object(_:keys:_:)``), and an error leaving one is prefixed with where that object sits,
/// so that building a path costs nothing until something is wrong.
///
/// ```swift
/// let body = try JSONObjectReader(value, keys: ["node", "result"])
/// let node = try body.string("node")
/// let status = try body.object("result", keys: ["status", "value"]) { result in try result.string("status") }
/// ```
public struct JSONObjectReader: Sendable {
    private let values: [String: JSONValue]
    /// The names this object may carry; reading any other is a programming error.
    private let keys: JSONKeys

    /// Reads `value`, which must be an object whose names are all among `keys`.
    /// - Throws: ``JSONReadError`` when `value` is not an object or carries an unknown name
    ///   (the first in sorted order, when there are several).
    /// - Complexity: O(n·k) for n members and k known names.
    public init(_ value: JSONValue, keys: JSONKeys) throws(JSONReadError) {
        guard case .object(let members) = value else { throw .wrongType([], expected: "an object", found: value) }
        var unknown: String?
        for key in members.keys where !keys.contains(key) {
            if let first = unknown, first <= key { continue }
            unknown = key
        }
        if let unknown { throw .unknown(unknown, known: keys) }
        self.values = members
        self.keys = keys
    }

    /// The value of `key`, `nil` when absent or `null`.
    @inline(__always)
    private func member(_ key: String) -> JSONValue? {
        assert(keys.contains(key), "'\(key)' is read but not among the object's known keys")
        guard let value = values[key] else { return nil }
        if case .null = value { return nil }
        return value
    }

    /// The value of a required `key`.
    @inline(__always)
    private func required(_ key: String) throws(JSONReadError) -> JSONValue {
        guard let value = member(key) else { throw .missing(key) }
        return value
    }

    /// Whether `key` is present and not `null`.
    public func contains(_ key: String) -> Bool {
        member(key) != nil
    }

    /// The value of `key` whatever its type (free-form content), `nil` when absent or `null`.
    public func value(_ key: String) -> JSONValue? {
        member(key)
    }

    /// An error with what is wrong at `path` below this object (none: the object itself), for
    /// the caller's own checks; it gets the object's place as it leaves a nested read.
    /// - Parameters:
    ///   - message: what is wrong ("must not be empty").
    ///   - path: the member at fault, relative to this object (`"params", 1`).
    public func error(_ message: String, at path: JSONPathComponent...) -> JSONReadError {
        .invalid(path, message)
    }

    // MARK: - Strings

    /// A required string.
    /// - Throws: ``JSONReadError`` when absent, `null` or not a string.
    public func string(_ key: String) throws(JSONReadError) -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw .wrongType([.key(key)], expected: "a string", found: value) }
        return text
    }

    /// An optional string, `nil` when absent or `null`.
    /// - Throws: ``JSONReadError`` when present and not a string.
    public func optionalString(_ key: String) throws(JSONReadError) -> String? {
        guard let value = member(key) else { return nil }
        guard case .string(let text) = value else { throw .wrongType([.key(key)], expected: "a string", found: value) }
        return text
    }

    // MARK: - Numbers and booleans

    /// A required integer (a number with an exact integer value, so `2.0` counts).
    /// - Throws: ``JSONReadError`` when absent, `null` or not an integer.
    public func int(_ key: String) throws(JSONReadError) -> Int {
        let value = try required(key)
        guard let number = value.intValue else { throw .wrongType([.key(key)], expected: "an integer", found: value) }
        return number
    }

    /// An optional integer, `nil` when absent or `null`.
    /// - Throws: ``JSONReadError`` when present and not an integer.
    public func optionalInt(_ key: String) throws(JSONReadError) -> Int? {
        guard let value = member(key) else { return nil }
        guard let number = value.intValue else { throw .wrongType([.key(key)], expected: "an integer", found: value) }
        return number
    }

    /// A required number.
    /// - Throws: ``JSONReadError`` when absent, `null` or not a number.
    public func double(_ key: String) throws(JSONReadError) -> Double {
        let value = try required(key)
        return try Self.double(value, key)
    }

    /// An optional number, `nil` when absent or `null`.
    /// - Throws: ``JSONReadError`` when present and not a number.
    public func optionalDouble(_ key: String) throws(JSONReadError) -> Double? {
        guard let value = member(key) else { return nil }
        return try Self.double(value, key)
    }

    private static func double(_ value: JSONValue, _ key: String) throws(JSONReadError) -> Double {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: throw .wrongType([.key(key)], expected: "a number", found: value)
        }
    }

    /// A required boolean.
    /// - Throws: ``JSONReadError`` when absent, `null` or not a boolean.
    public func bool(_ key: String) throws(JSONReadError) -> Bool {
        let value = try required(key)
        guard case .bool(let flag) = value else { throw .wrongType([.key(key)], expected: "a boolean", found: value) }
        return flag
    }

    /// An optional boolean, `nil` when absent or `null`.
    /// - Throws: ``JSONReadError`` when present and not a boolean.
    public func optionalBool(_ key: String) throws(JSONReadError) -> Bool? {
        guard let value = member(key) else { return nil }
        guard case .bool(let flag) = value else { throw .wrongType([.key(key)], expected: "a boolean", found: value) }
        return flag
    }
}
