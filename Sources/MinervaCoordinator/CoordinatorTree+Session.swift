import MinervaJSON

extension CoordinatorTree {
    /// Selects a tab; each tab keeps its own stack.
    /// - Throws: `invalid` for an app without tabs or an unknown tab.
    public mutating func selectTab(_ tab: String) throws(NavigationError) {
        guard let tabs = app.tabs else { throw .invalid("this app has no tabs") }
        guard tabs.contains(where: { $0.id == tab }) else {
            throw .invalid("unknown tab \(Excerpt(tab)); the app's tabs are: \(tabs.map(\.id).joined(separator: ", "))")
        }
        selectedTab = tab
    }

    /// Sets and clears session flags (clearing shows nothing and removes nothing).
    /// - Parameters:
    ///   - set: flags to set.
    ///   - clear: flags to clear; a flag in both is set.
    public mutating func updateFlags(set: [String], clear: [String]) throws(NavigationError) {
        if (set + clear).contains(where: \.isEmpty) {
            throw .invalid("flag names must not be empty")
        }
        flags.subtract(clear)
        flags.formUnion(set)
    }
}
