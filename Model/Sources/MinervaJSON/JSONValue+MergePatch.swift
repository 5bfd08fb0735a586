extension JSONValue {
    /// This value with a JSON Merge Patch applied (RFC 7396): an object patch sets each of its
    /// members (recursively, into an object — a target that is not one becomes `{}`) and removes
    /// those it gives as `null`; any other patch replaces the value whole (arrays included).
    /// What an experiment's variant changes of an app description.
    public func merging(patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [String: JSONValue]
        if case .object(let own) = self { members = own } else { members = [:] }
        for (name, change) in changes {
            if change == .null {
                members[name] = nil
            } else {
                members[name] = (members[name] ?? .null).merging(patch: change)
            }
        }
        return .object(members)
    }
}
