import MinervaJSON

extension CoordinatorTree {
    /// Selects a tab; each tab keeps its own stack, and a context-level presentation stays with
    /// its tab.
    /// - Parameters:
    ///   - tab: the tab's id.
    ///   - dismiss: whether a window-level presentation that covers the tab bar is dismissed
    ///     first (reason `dismiss`, its flows cancelled with cause `dismiss`) rather than refused.
    /// - Returns: the `removed` and `finished` events of the dismissal.
    /// - Throws: `invalid` for an app without tabs or an unknown tab; `covered` while a
    ///   window-level presentation covers the tab bar and `dismiss` is false (selecting the
    ///   selected tab stays a no-op).
    @discardableResult
    public mutating func selectTab(_ tab: String, dismiss: Bool = false) throws(NavigationError) -> [NavigationEvent] {
        guard let tabs else { throw .invalid(app.declaresFlows ? "flow '\(flow)' has no tabs" : "this app has no tabs") }
        guard tabs.contains(where: { $0.id == tab }) else {
            throw .invalid("unknown tab \(Excerpt(tab)); the \(app.declaresFlows ? "flow's" : "app's") tabs are: \(tabs.map(\.id).joined(separator: ", "))")
        }
        // Selecting the selected tab changes nothing, covered or not.
        if tab == selectedTab, !dismiss { return [] }
        let covers = windowCovers
        var events: [NavigationEvent] = []
        if let cover = covers.first {
            guard dismiss else {
                throw .covered(coverMessage(cover, action: "select tab '\(tab)'", fix: "or send select-tab with \"dismiss\": true"))
            }
            var targets = Set<NodeID>()
            for cover in covers {
                targets.formUnion(navigators[cover]!.stack)
                for above in presentedChain(above: cover) { targets.formUnion(navigators[above]!.stack) }
            }
            events = remove(targets, reason: .dismiss)
        }
        selectedTab = tab
        return events
    }

    /// Records the horizontal size class the device reports: a compact split view shows one
    /// column as one stack (``compactStack``); no node comes or goes.
    /// - Returns: nothing: the block says `sizeClassChanged` when it changed.
    public mutating func setSizeClass(_ horizontal: SizeClass) {
        sizeClass = horizontal
    }
}
