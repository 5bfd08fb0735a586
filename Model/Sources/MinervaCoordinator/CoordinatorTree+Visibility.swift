import MinervaJSON

extension CoordinatorTree {
    /// The base navigator whose presentations `navigatorID` hangs from (itself for a base one).
    func base(of navigatorID: NavigatorID) -> NavigatorID {
        var current = navigatorID
        while let parent = navigators[current]?.parent { current = parent }
        return current
    }

    /// The base navigators a device shows now: the selected tab's, `v0`, or the split view's
    /// columns (the one a compact split view shows); and an overlay's over them.
    var shownBaseNavigators: [NavigatorID] {
        let shown: [NavigatorID]
        if let selectedTab {
            shown = [Self.navigatorID(forTab: selectedTab)]
        } else if collapsed {
            shown = [compactTopColumn]
        } else {
            shown = baseNavigators
        }
        return overlay == nil ? shown : shown + [.overlay]
    }

    /// The window-level presented navigators that no other window-level navigator presents, in
    /// the order they were made: what covers the tab bar and every split column (at most one in a
    /// state today's rules reach); an overlay alone while one is shown (it covers those beneath).
    var windowCovers: [NavigatorID] {
        overlay != nil ? [.overlay] : flowWindowCovers
    }

    /// ``windowCovers`` of the flow, beneath an overlay if one is shown.
    var flowWindowCovers: [NavigatorID] {
        navigatorOrder.filter { id in
            guard self[navigator: id].coversWindow, id != .overlay else { return false }
            var parent = self[navigator: id].parent
            while let next = parent {
                if self[navigator: next].coversWindow { return false }
                parent = self[navigator: next].parent
            }
            return true
        }
    }

    /// The navigators that present `navigatorID`, nearest first.
    private func presenters(of navigatorID: NavigatorID) -> [NavigatorID] {
        var chain: [NavigatorID] = []
        var current = navigators[navigatorID]?.parent
        while let next = current {
            chain.append(next)
            current = navigators[next]?.parent
        }
        return chain
    }

    /// Refuses a presentation from a navigator a device does not show: one of a tab that is not
    /// selected (`not_visible`), or one under another navigator's window-level presentation
    /// (`covered`). The caller has checked that it presents nothing itself.
    func requireVisible(_ navigatorID: NavigatorID, toPresent screen: String) throws(NavigationError) {
        let base = base(of: navigatorID)
        if !shownBaseNavigators.contains(base) {
            guard let tab = tabs?.first(where: { Self.navigatorID(forTab: $0.id) == base })?.id else {
                throw .notVisible(
                    "column '\(base)' is not shown: the split view is compact and shows '\(compactTopColumn)', so a device cannot present "
                        + "\(Excerpt(screen)) from navigator '\(navigatorID)'; present from the focus, or switch to size class regular")
            }
            throw .notVisible(
                "navigator '\(navigatorID)' belongs to tab '\(tab)', which is not selected, so a device cannot present \(Excerpt(screen)) "
                    + "from it; select-tab '\(tab)' first, or present from the focus")
        }
        let presenters = presenters(of: navigatorID)
        if let cover = windowCovers.first(where: { $0 != navigatorID && !presenters.contains($0) }) {
            throw .covered(coverMessage(cover, action: "present \(Excerpt(screen)) from navigator '\(navigatorID)'", fix: "or present from the focus"))
        }
    }

    /// Refuses a change of split column while a window-level presentation covers the columns
    /// (also one the origin's column presents: the change happens under it).
    func requireUncovered(toChange column: NavigatorID) throws(NavigationError) {
        if let cover = windowCovers.first {
            throw .covered(coverMessage(cover, action: "change column '\(column)'", fix: "or push from the focus"))
        }
    }

    /// Refuses what only the user can have done on a navigator that is not on top: a swipe
    /// dismisses the top-most presentation of a shown navigator, a back swipe pops the top of
    /// such a stack.
    func requireOnTop(_ navigatorID: NavigatorID, action: String) throws(NavigationError) {
        if let above = self[navigator: navigatorID].presentedNavigator {
            throw .conflict(
                "navigator '\(navigatorID)' presents '\(self[navigator: above].stack[0])', so it cannot have been \(action) by the user; "
                    + "only what is on top can be; leave out 'interactive' for a programmatic change")
        }
        let presenters = presenters(of: navigatorID)
        guard shownBaseNavigators.contains(base(of: navigatorID)), !windowCovers.contains(where: { $0 != navigatorID && !presenters.contains($0) })
        else {
            throw .conflict(
                "navigator '\(navigatorID)' is not shown, so it cannot have been \(action) by the user; leave out 'interactive' for a programmatic change")
        }
    }

    /// Why a window-level presentation blocks an action, and what to do.
    func coverMessage(_ cover: NavigatorID, action: String, fix: String) -> String {
        let root = self[navigator: cover].stack[0]
        let style = self[node: root].presentation.style ?? .automatic
        return "'\(root)' is presented \(style.rawValue) at window level and covers the tab bar and every column, so a device cannot "
            + "\(action); dismiss '\(root)' first, \(fix)"
    }
}
