import MinervaCoordinator
import MinervaJSON
import MinervaList

extension SessionCommand {
    /// Runs `command`, then puts its screen's sample list (``AppDescription/SampleList``) on
    /// every node the step added that has none, in the same block: a client that shows sample
    /// content gets the node and its first list as one change.
    /// - Returns: the step's changes, then one `listChanged` per list put, by node id.
    func apply(
        _ command: SessionCommand, withSampleListsTo state: inout SessionState, limits: StepLimits
    ) throws(SessionError) -> [SessionEvent.Change] {
        let before = state.tree.nodes
        var changes = try command.apply(to: &state, limits: limits)
        var added: [(node: NodeID, sample: AppDescription.SampleList)] = []
        for (id, node) in state.tree.nodes where before[id] == nil && state.lists[id] == nil {
            guard let sample = state.tree.app.screens[node.screen]?.sampleList else { continue }
            added.append((id, sample))
        }
        for (node, sample) in added.sorted(by: { $0.node < $1.node }) {
            let params = state.tree[node: node].params
            do throws(SessionError) {
                changes.append(try putList(node, sample.sections(filling: params), on: &state, limits: limits))
            } catch {
                let screen = state.tree[node: node].screen
                throw SessionError(error.category, "the sample list of screen '\(screen)' cannot be put: \(error.description)", code: error.code)
            }
        }
        return changes
    }
}

extension AppDescription.SampleList {
    /// The list's sections as `PUT …/list` takes them, each `navigate` param written `":name"`
    /// replaced by the shown node's param `name` (left as written when the node has none).
    func sections(filling params: [String: JSONValue]) -> [ListSection] {
        sections.map { section in
            ListSection(id: section.id, items: section.items.map { item in
                Cell(id: item.id, kind: item.kind, content: Self.filling(item.content, from: params))
            })
        }
    }

    /// `content` with its `navigate.params` values `":name"` filled from `params`.
    private static func filling(_ content: JSONValue, from params: [String: JSONValue]) -> JSONValue {
        guard var members = content.objectValue, var navigate = members["navigate"]?.objectValue,
            let targetParams = navigate["params"]?.objectValue
        else { return content }
        navigate["params"] = .object(targetParams.mapValues { value in
            guard let text = value.stringValue, text.hasPrefix(":") else { return value }
            return params[String(text.dropFirst())] ?? value
        })
        members["navigate"] = .object(navigate)
        return .object(members)
    }
}
