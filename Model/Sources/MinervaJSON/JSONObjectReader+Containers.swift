extension JSONObjectReader {
    // MARK: - Free-form arrays and objects

    /// A required array of values of any type.
    /// - Throws: ``JSONReadError`` when absent, `null` or not an array.
    public func array(_ key: String) throws(JSONReadError) -> [JSONValue] {
        guard let elements = try optionalArray(key) else { throw .missing(key) }
        return elements
    }

    /// An optional array of values of any type, `nil` when absent or `null`.
    /// - Throws: ``JSONReadError`` when present and not an array.
    public func optionalArray(_ key: String) throws(JSONReadError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw .wrongType([.key(key)], expected: "an array", found: value) }
        return elements
    }

    /// A required object of members of any name and type (screen params, for instance).
    /// - Throws: ``JSONReadError`` when absent, `null` or not an object.
    public func object(_ key: String) throws(JSONReadError) -> [String: JSONValue] {
        guard let members = try optionalObject(key) else { throw .missing(key) }
        return members
    }

    /// An optional object of members of any name and type, `nil` when absent or `null`.
    /// - Throws: ``JSONReadError`` when present and not an object.
    public func optionalObject(_ key: String) throws(JSONReadError) -> [String: JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .object(let members) = value else { throw .wrongType([.key(key)], expected: "an object", found: value) }
        return members
    }

    /// A required array of strings.
    /// - Throws: ``JSONReadError`` when absent, `null`, not an array, or an element is not a
    ///   string (naming it: `set[1]`).
    public func strings(_ key: String) throws(JSONReadError) -> [String] {
        guard let strings = try optionalStrings(key) else { throw .missing(key) }
        return strings
    }

    /// An optional array of strings, `nil` when absent or `null`.
    /// - Throws: ``JSONReadError`` when present and not an array of strings.
    public func optionalStrings(_ key: String) throws(JSONReadError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw .wrongType([.key(key)], expected: "an array of strings", found: value) }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else { throw .wrongType([.key(key), .index(index)], expected: "a string", found: element) }
            strings.append(text)
        }
        return strings
    }

    /// An optional object whose members are all strings (names by name), `nil` when absent or `null`.
    /// - Throws: ``JSONReadError`` when present and not such an object.
    public func optionalStringsByName(_ key: String) throws(JSONReadError) -> [String: String]? {
        guard let members = try optionalObject(key) else { return nil }
        var strings: [String: String] = [:]
        for (name, member) in members {
            guard case .string(let text) = member else { throw .wrongType([.key(key), .key(name)], expected: "a string", found: member) }
            strings[name] = text
        }
        return strings
    }

    // MARK: - Nested objects

    /// Reads a required nested object with a reader of its own.
    /// - Parameters:
    ///   - keys: the names the nested object may carry.
    ///   - read: reads the nested object; its errors get `key` in front of their path.
    /// - Returns: what `read` returns.
    /// - Throws: ``JSONReadError`` when absent, `null`, not an object, carrying an unknown
    ///   name, or when `read` throws.
    @inlinable
    public func object<T>(_ key: String, keys: JSONKeys, _ read: (JSONObjectReader) throws(JSONReadError) -> T) throws(JSONReadError) -> T {
        guard let result = try optionalObject(key, keys: keys, read) else { throw .missing(key) }
        return result
    }

    /// Reads an optional nested object with a reader of its own; `nil` when absent or `null`.
    /// - Throws: as ``object(_:keys:_:)`` except when absent.
    @inlinable
    public func optionalObject<T>(_ key: String, keys: JSONKeys, _ read: (JSONObjectReader) throws(JSONReadError) -> T)
        throws(JSONReadError) -> T?
    {
        guard let value = value(key) else { return nil }
        do throws(JSONReadError) {
            return try read(JSONObjectReader(value, keys: keys))
        } catch {
            throw error.prefixed(by: .key(key))
        }
    }

    /// Reads a required array of objects, each with a reader of its own.
    /// - Parameters:
    ///   - keys: the names each element may carry.
    ///   - read: reads one element; its errors get `key[index]` in front of their path.
    /// - Returns: what `read` returns for each element, in order.
    /// - Throws: ``JSONReadError`` when absent, `null`, not an array, when an element is not
    ///   an object or carries an unknown name, or when `read` throws.
    @inlinable
    public func objects<T>(_ key: String, keys: JSONKeys, _ read: (JSONObjectReader) throws(JSONReadError) -> T) throws(JSONReadError) -> [T] {
        guard let results = try optionalObjects(key, keys: keys, read) else { throw .missing(key) }
        return results
    }

    /// Reads an optional array of objects, each with a reader of its own; `nil` when absent or `null`.
    /// - Throws: as ``objects(_:keys:_:)`` except when absent.
    @inlinable
    public func optionalObjects<T>(_ key: String, keys: JSONKeys, _ read: (JSONObjectReader) throws(JSONReadError) -> T)
        throws(JSONReadError) -> [T]?
    {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw .wrongType([.key(key)], expected: "an array", found: value) }
        var results: [T] = []
        results.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do throws(JSONReadError) {
                results.append(try read(JSONObjectReader(element, keys: keys)))
            } catch {
                throw error.prefixed(by: .key(key), .index(index))
            }
        }
        return results
    }

    /// Reads a required object whose names are free (a map such as `screens`) and whose
    /// values are objects, each with a reader of its own.
    /// - Parameters:
    ///   - keys: the names each value may carry.
    ///   - read: reads one value; its errors get `key.name` in front of their path. Values are
    ///     read in the sorted order of their names, so that errors are the same every time.
    /// - Returns: what `read` returns, by name.
    /// - Throws: ``JSONReadError`` when absent, `null`, not an object, when a value is not an
    ///   object or carries an unknown name, or when `read` throws.
    @inlinable
    public func members<T>(_ key: String, keys: JSONKeys, _ read: (JSONObjectReader) throws(JSONReadError) -> T) throws(JSONReadError)
        -> [String: T]
    {
        let members = try object(key)
        var results: [String: T] = [:]
        results.reserveCapacity(members.count)
        for (name, value) in members.sorted(by: { $0.key < $1.key }) {
            do throws(JSONReadError) {
                results[name] = try read(JSONObjectReader(value, keys: keys))
            } catch {
                throw error.prefixed(by: .key(key), .key(name))
            }
        }
        return results
    }
}
