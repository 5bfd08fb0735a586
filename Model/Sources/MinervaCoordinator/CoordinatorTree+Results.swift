public import MinervaJSON

extension CoordinatorTree {
    /// Writes the result of every `finished` event of a block on its parent (latest wins per
    /// screen): what a mutation's block and its replay both do once the block's version is known.
    /// - Parameters:
    ///   - block: a mutation's events.
    ///   - version: the version the block produced.
    public mutating func keepResults(of block: [NavigationEvent], version: Int) {
        for case .finished(let finished) in block { keepResult(of: finished, version: version) }
    }

    /// Writes one flow's result on its parent, when the event says the parent holds it and the
    /// parent is still there (see ``keepResults(of:version:)``).
    public mutating func keepResult(of finished: FinishedFlow, version: Int) {
        guard finished.held, nodes[finished.parent] != nil else { return }
        let result = finished.result.objectValue ?? [:]
        let status = result["status"]?.stringValue.flatMap(FlowStatus.init(rawValue:)) ?? .cancelled
        self[node: finished.parent].holdings.results = (nodes[finished.parent]?.results ?? [:]).merging(
            [finished.screen: FlowResult(status: status, value: result["value"], version: version)]) { _, new in new }
    }

    /// Whether a flow of `screen` that finished leaves its result on `parent`: the screen says it
    /// returns one (`"result": true`) or the finish carried a value; never on the app
    /// coordinator (a root flow's completion is its flag).
    func holdsResult(of screen: String, parent: NodeID, value: JSONValue?) -> Bool {
        guard parent != rootID else { return false }
        return (value != nil && value != .null) || app.screens[screen]?.returnsResult == true
    }

    /// Takes the result a flow of `screen` left on `node`: its client has handled it.
    /// - Returns: the `resultConsumed` event.
    /// - Throws: `notFound` for an unknown node, or when it holds no result of that screen
    ///   (naming those it holds).
    @discardableResult
    public mutating func consumeResult(of node: NodeID, screen: String) throws(NavigationError) -> [NavigationEvent] {
        let parent = self[node: node]
        guard var held = parent.results, held[screen] != nil else {
            let held = parent.results.map { $0.keys.sorted().joined(separator: ", ") } ?? ""
            throw NavigationError(
                category: .notFound,
                description: "node '\(node)' holds no result of screen \(Excerpt(screen)); "
                    + (held.isEmpty ? "it holds none" : "it holds results of: \(held)"))
        }
        held[screen] = nil
        self[node: parent.id].holdings.results = held.isEmpty ? nil : held
        return [.resultConsumed(node: parent.id, screen: screen)]
    }

    /// Replaces a node's UI state (scroll anchor, selection, a draft: semantic state the client
    /// restores), which lives and dies with the node.
    /// - Returns: the `uiChanged` event, or none when the node already holds exactly this.
    /// - Throws: `notFound` for an unknown node, `conflict` for the app coordinator.
    @discardableResult
    public mutating func setUI(of node: NodeID, to value: [String: JSONValue]) throws(NavigationError) -> [NavigationEvent] {
        let target = self[node: node]
        guard target.id != rootID else { throw .conflict("the app coordinator '\(node)' shows no screen and holds no UI state") }
        guard (target.ui ?? [:]) != value else { return [] }
        self[node: target.id].holdings.ui = value.isEmpty ? nil : value
        return [.uiChanged(node: target.id, ui: value)]
    }
}
