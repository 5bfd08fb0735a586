import MinervaJSON

extension CoordinatorTree {
    /// Selects a tab; each tab keeps its own stack, and a context-level presentation stays with
    /// its tab.
    /// - Parameters:
    ///   - tab: the tab's id.
    ///   - dismiss: whether a window-level presentation that covers the tab bar is dismissed
    ///     first (reason `dismiss`, its flows cancelled with cause `dismiss`) rather than refused.
    /// A tab whose root screen is guarded, selected while the flag is missing, shows the guard's
    /// `otherwise` flow instead and the selection waits as the pending target.
    /// - Returns: the `removed` and `finished` events of the dismissal, and the guard's flow.
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
        try requireAboveOverlay(Self.navigatorID(forTab: tab), action: "select tab '\(tab)'")
        let covers = windowCovers
        var next = self
        var events: [NavigationEvent] = []
        if let cover = covers.first {
            guard dismiss else {
                throw .covered(coverMessage(cover, action: "select tab '\(tab)'", fix: "or send select-tab with \"dismiss\": true"))
            }
            var targets = Set<NodeID>()
            for cover in covers {
                targets.formUnion(self[navigator: cover].stack)
                for above in presentedChain(above: cover) { targets.formUnion(self[navigator: above].stack) }
            }
            events = next.remove(targets, reason: .dismiss)
        }
        if tab != selectedTab, let diverted = try next.divertSelection(of: tab) {
            events += diverted
        } else {
            next.selectedTab = tab
        }
        self = next
        return events
    }

    /// Records the horizontal size class the device reports: a compact split view shows one
    /// column as one stack (``compactStack``). A collapse dismisses what a column compact does
    /// not show presents (a popover from `detail` while `compactTop: primary`), at any level:
    /// reason `sizeClass`, its flows cancelled with that cause. No node comes.
    /// - Returns: the removals (the block says `sizeClassChanged` when it changed).
    @discardableResult
    public mutating func setSizeClass(_ horizontal: SizeClass) -> [NavigationEvent] {
        sizeClass = horizontal
        return dismissHiddenPresentations()
    }

    /// Records which columns the split view shows at regular width (the user hid the sidebar,
    /// or showed it over the detail). Nothing else changes: every column keeps its stack, the
    /// focus stays, and a compact split view still shows one stack.
    /// - Throws: `invalid` without a split view, or for a mode of two columns beside `detail`
    ///   (`two…`) in a split view of two columns.
    /// - Returns: no event of its own (the block says `displayModeChanged` when it changed).
    public mutating func setDisplayMode(_ mode: SplitDisplayMode) throws(NavigationError) -> [NavigationEvent] {
        guard let split else {
            throw .invalid("\(app.declaresFlows ? "flow '\(flow)'" : "this session") has no split view, so no display mode; only a split view's columns can show or hide")
        }
        if mode.needsThreeColumns, split.columns != 3 {
            throw .invalid(
                "display mode '\(mode.rawValue)' shows two columns beside detail, but this split view has two columns; use secondaryOnly, oneBesideSecondary, oneOverSecondary or automatic")
        }
        displayMode = mode
        return []
    }

    /// In a compact split view, dismisses the presentations hanging from columns it does not
    /// show (reason `sizeClass`); nothing in any other layout.
    mutating func dismissHiddenPresentations() -> [NavigationEvent] {
        var targets = Set<NodeID>()
        for column in hiddenColumns {
            guard let presented = self[navigator: column].presentedNavigator else { continue }
            for navigator in [presented] + presentedChain(above: presented) { targets.formUnion(self[navigator: navigator].stack) }
        }
        return remove(targets, reason: .sizeClass)
    }
}
