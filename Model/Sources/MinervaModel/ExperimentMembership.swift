public import MinervaJSON

/// A session's place in one experiment of its app: the variant it was assigned, and when it
/// was first exposed (it reached a part of the app where the variants differ).
public struct ExperimentMembership: Sendable, Hashable {
    /// The variant's name.
    public var variant: String
    /// When it was exposed, in milliseconds since 1970; `nil` until then.
    public var exposedAt: Int?

    /// Creates a membership.
    public init(variant: String, exposedAt: Int? = nil) {
        self.variant = variant
        self.exposedAt = exposedAt
    }
}

extension ExperimentMembership {
    /// The members of one membership as documents and records write it.
    static let keys: JSONKeys = ["variant", "exposedAt"]

    /// Writes memberships as one object, `{"<experiment>": {"variant", "exposedAt"?}, …}` (the
    /// time in RFC 3339), experiments in order of their keys: the state document's `experiments`
    /// and a session head's.
    public static func write(_ memberships: [String: ExperimentMembership], into writer: inout JSONWriter) {
        writer.beginObject()
        for experiment in memberships.keys.sorted() {
            guard let membership = memberships[experiment] else { continue }
            writer.key(string: experiment)
            writer.beginObject()
            writer.field("variant", membership.variant)
            if let exposedAt = membership.exposedAt { writer.field("exposedAt", Timestamp.rfc3339(milliseconds: exposedAt)) }
            writer.endObject()
        }
        writer.endObject()
    }

    /// Reads memberships as ``write(_:into:)`` writes them, from `key` of an object that may
    /// carry them (empty when it does not).
    /// - Throws: ``JSONReadError`` when they are not memberships.
    public static func read(_ key: String, of reader: JSONObjectReader) throws(JSONReadError) -> [String: ExperimentMembership] {
        var memberships: [String: ExperimentMembership] = [:]
        for (experiment, membership) in try reader.optionalObject(key) ?? [:] {
            do throws(JSONReadError) {
                let member = try JSONObjectReader(membership, keys: keys)
                var exposedAt: Int?
                if let text = try member.optionalString("exposedAt") {
                    guard let time = Timestamp.milliseconds(rfc3339: text) else { throw member.error("not an RFC 3339 time", at: "exposedAt") }
                    exposedAt = time
                }
                memberships[experiment] = ExperimentMembership(variant: try member.string("variant"), exposedAt: exposedAt)
            } catch {
                throw reader.error("\(error)", at: .key(key), .key(experiment))
            }
        }
        return memberships
    }
}
