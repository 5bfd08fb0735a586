import MinervaJSON
import MinervaModel

extension SessionCommand {
    /// Reads the request body of `operation`: a JSON object of that operation's fields and no
    /// others (``SessionCommand/init(_:body:)``, the model's reader of the API's bodies).
    /// - Throws: `400` for a missing body or field, a wrong JSON type, or an unknown field
    ///   (naming it and the nearest known one: `pop {"to_root": true}` never pops one screen).
    init(_ operation: NavigationOperation, bytes: [UInt8]) throws(APIError) {
        self = try readBody(bytes, required: operation.requiresBody, keys: operation.bodyKeys) { body throws(JSONReadError) in
            try SessionCommand(operation, body: body)
        }
    }

    /// Reads a node operation: the node and screen of its path, and its body (none for
    /// `results`), with the model's reader (``SessionCommand/init(_:node:screen:body:)``).
    /// - Throws: `400` for a missing body or field, a wrong JSON type, or an unknown field.
    init(_ operation: NodeOperation, node: String, screen: String? = nil, bytes: [UInt8]) throws(APIError) {
        let body = operation.requiresBody ? JSONValue.object(try readObjectBody(bytes, required: true)) : .object([:])
        do throws(JSONReadError) {
            self = try SessionCommand(operation, node: node, screen: screen, body: body)
        } catch {
            throw APIError(error)
        }
    }
}
