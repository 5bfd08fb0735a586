import MinervaJSON

extension CoordinatorTree {
    /// Selects a tab; each tab keeps its own stack.
    /// - Throws: `invalid` for an app without tabs or an unknown tab.
    public mutating func selectTab(_ tab: String) throws(NavigationError) {
        guard let tabs else { throw .invalid(app.declaresFlows ? "flow '\(flow)' has no tabs" : "this app has no tabs") }
        guard tabs.contains(where: { $0.id == tab }) else {
            throw .invalid("unknown tab \(Excerpt(tab)); the \(app.declaresFlows ? "flow's" : "app's") tabs are: \(tabs.map(\.id).joined(separator: ", "))")
        }
        selectedTab = tab
    }
}
