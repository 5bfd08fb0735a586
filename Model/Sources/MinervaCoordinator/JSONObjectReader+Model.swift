public import MinervaJSON

extension JSONObjectReader {
    /// A required node id (`n4`).
    /// - Throws: ``JSONReadError`` when absent or not a node id.
    public func nodeID(_ key: String) throws(JSONReadError) -> NodeID {
        let text = try string(key)
        guard let id = NodeID(text) else { throw error("'\(text.prefix(64))' is not a node id", at: .key(key)) }
        return id
    }

    /// An optional node id.
    public func optionalNodeID(_ key: String) throws(JSONReadError) -> NodeID? {
        guard contains(key) else { return nil }
        return try nodeID(key)
    }

    /// An array of node ids.
    public func nodeIDs(_ key: String) throws(JSONReadError) -> [NodeID] {
        var ids: [NodeID] = []
        for (index, text) in try strings(key).enumerated() {
            guard let id = NodeID(text) else { throw error("'\(text.prefix(64))' is not a node id", at: .key(key), .index(index)) }
            ids.append(id)
        }
        return ids
    }

    /// A required value of a string enum.
    /// - Throws: ``JSONReadError`` when absent or not one of its values.
    public func enumValue<T: RawRepresentable & CaseIterable>(_ key: String, as: T.Type) throws(JSONReadError) -> T where T.RawValue == String {
        let text = try string(key)
        guard let value = T(rawValue: text) else {
            throw error("'\(text.prefix(64))' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))", at: .key(key))
        }
        return value
    }

    /// An optional value of a string enum.
    public func optionalEnumValue<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type) throws(JSONReadError) -> T?
    where T.RawValue == String {
        guard contains(key) else { return nil }
        return try enumValue(key, as: type)
    }
}
