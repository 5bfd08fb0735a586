import MinervaJSON

extension CoordinatorTree {
    /// Changes how a shown node is presented, as `POST …/nodes/{node}/presentation` reports it:
    /// the user moved its sheet to another detent (`selected`), or the app lets or stops the
    /// user swiping it away (`dismissible`: a cart that becomes non-dismissible when paying
    /// starts; for a pushed node, its back swipe).
    /// - Parameters:
    ///   - node: the node.
    ///   - selected: a detent of its sheet, or `nil` to leave it.
    ///   - dismissible: whether the user may swipe it away, or `nil` to leave it.
    /// - Returns: one `presentationChanged` naming what changed, or none when nothing did.
    /// - Throws: `notFound` for an unknown node; `invalid` when neither is given or for a detent
    ///   the sheet does not list; `conflict` for a detent of a node not presented with detents,
    ///   or `dismissible` of a root (nothing swipes a root away).
    @discardableResult
    public mutating func changePresentation(of node: NodeID, selected: String?, dismissible: Bool?) throws(NavigationError) -> [NavigationEvent] {
        let target = self[node: node]
        guard selected != nil || dismissible != nil else { throw .invalid("give 'selected' (a detent), 'dismissible', or both") }
        try requireAboveOverlay(target.navigator, action: "change the presentation of '\(node)'")
        var newDetent: String?
        if let selected {
            guard let sheet = target.settings?.sheet else {
                throw .conflict(
                    "node '\(node)' is not presented as a sheet with detents; only a sheet (or a popover's compact form) has a detent to select")
            }
            guard sheet.detents.contains(where: { $0.id == selected }) else {
                throw .invalid("detent \(Excerpt(selected)) is not one of node '\(node)''s: \(sheet.detents.map(\.id).joined(separator: ", "))")
            }
            if sheet.shown != selected { newDetent = selected }
        }
        var newDismissible: Bool?
        if let dismissible {
            guard target.presentation.kind == .present || target.presentation.kind == .push else {
                throw .conflict(
                    "node '\(node)' is the \(target.id == rootID ? "app coordinator" : "root of base navigator '\(target.stackNavigator)'"), "
                        + "which the user cannot swipe away or back; 'dismissible' is for presented and pushed nodes")
            }
            if isDismissible(target) != dismissible { newDismissible = dismissible }
        }
        guard newDetent != nil || newDismissible != nil else { return [] }
        applyPresentationChange(of: target.id, selected: newDetent, dismissible: newDismissible)
        return [.presentationChanged(node: target.id, selected: newDetent, dismissible: newDismissible)]
    }

    /// What a `presentationChanged` does to the tree, live and in replay.
    mutating func applyPresentationChange(of node: NodeID, selected: String?, dismissible: Bool?) {
        guard var settings = nodes[node].map({ $0.settings ?? PresentationSettings() }) else { return }
        if let selected { settings.sheet?.selected = selected }
        if let dismissible { settings.dismissible = dismissible }
        self[node: node].holdings.settings = settings.isEmpty ? nil : settings
    }

    /// Whether the user may swipe a node away (or back-swipe it): its presentation's setting, else its screen's.
    func isDismissible(_ node: Node) -> Bool {
        node.settings?.dismissible ?? app.screens[node.screen]?.dismissible ?? true
    }
}
