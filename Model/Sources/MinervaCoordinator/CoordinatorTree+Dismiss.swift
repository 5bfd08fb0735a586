extension CoordinatorTree {
    /// Dismisses a presented node with everything presented above it.
    /// - Parameters:
    ///   - node: a presented node (the root of a presented navigator); default the top-most one.
    ///   - interactive: whether the user did it (a swipe the client reports once it completed):
    ///     only the top-most presented node of a shown navigator, presented as a sheet or a
    ///     popover, can be swiped away, and only while every screen on its stack is dismissible.
    /// - Returns: the `removed` events, reason `dismiss`, top-most first, and the `finished`
    ///   event of its flow (`cancelled`, cause `dismiss`).
    /// - Throws: `notFound` for an unknown node, `conflict` when it is not presented or nothing
    ///   is, or (interactive) when something is presented above it or it is not shown;
    ///   `notDismissible` (interactive) when a screen on its stack says `dismissible: false`.
    @discardableResult
    public mutating func dismiss(node: NodeID? = nil, interactive: Bool = false) throws(NavigationError) -> [NavigationEvent] {
        let navigatorID: NavigatorID
        if let node {
            let target = self[node: node]
            if let overlay, target.presentation.kind == .overlay {
                throw .conflict("'\(node)' is the root of overlay '\(overlay)', which no dismissal takes away: \(overlayEnd(overlay))")
            }
            guard let ownNavigator = target.navigator, let navigator = navigators[ownNavigator], !navigator.isBase,
                navigator.stack.first == target.id
            else {
                throw .conflict("node '\(node)' is not presented; only the root of a presented navigator can be dismissed")
            }
            try requireAboveOverlay(ownNavigator, action: "dismiss '\(node)'")
            navigatorID = ownNavigator
        } else {
            let top = self[node: focus].stackNavigator
            guard !self[navigator: top].isBase else {
                throw .conflict(overlay.map { "nothing is presented over overlay '\($0)'; \(overlayEnd($0))" } ?? "nothing is presented")
            }
            navigatorID = top
        }
        if interactive {
            try requireOnTop(navigatorID, action: "dismissed interactively")
            let root = self[node: self[navigator: navigatorID].stack[0]]
            if let style = root.presentation.style, !style.takesSheet {
                throw .conflict(
                    "'\(root.id)' is presented \(style.rawValue), which the user cannot swipe away (only sheets and popovers); "
                        + "leave out 'interactive' for a dismissal the app decided")
            }
            // UIKit asks the child shown (isModalInPresentation): any screen on the stack may hold the sheet.
            if let holding = self[navigator: navigatorID].stack.map({ self[node: $0] }).first(where: { !isDismissible($0) }) {
                let why =
                    holding.id == root.id
                    ? "'\(root.id)' says it cannot be swiped away (dismissible: false)"
                    : "'\(holding.id)' ('\(holding.screen)') on its stack says it cannot be swiped away (dismissible: false), so '\(root.id)' cannot be"
                throw .notDismissible(
                    "\(why); a client does not let the user do it, and dismisses it without 'interactive' when the app decides to")
            }
        }
        var targets = Set(self[navigator: navigatorID].stack)
        for above in presentedChain(above: navigatorID) {
            targets.formUnion(self[navigator: above].stack)
        }
        return remove(targets, reason: .dismiss, interactive: interactive)
    }
}
