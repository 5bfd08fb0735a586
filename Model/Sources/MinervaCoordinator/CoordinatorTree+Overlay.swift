extension CoordinatorTree {
    /// Shows overlay flow `name` over the session's flow: navigator ``NavigatorID/overlay``
    /// with the flow's root screen, a child of the app coordinator. The flow beneath stays as it is.
    mutating func showOverlay(_ name: String) {
        guard case .screen(let screen) = app.flows[name]?.root else { preconditionFailure("an overlay's root is one screen") }
        overlay = name
        addNavigator(Navigator(id: .overlay, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .overlay)))
        self[navigator: .overlay].stack = [makeNode(screen: screen, params: [:], presentation: Presentation(.overlay), navigator: .overlay, parent: rootID)]
    }

    /// Takes the overlay away: its nodes leave (top-most first, reason `flowChanged`: its flow
    /// left) with its navigators; with `followingLink` (the flow beneath comes back), a deep link
    /// that waited for it is followed as it arrives now (held by a screen that holds links,
    /// dropped when it can no longer be shown).
    /// - Returns: the `removed` events and those of the link.
    mutating func endOverlay(followingLink: Bool) -> [NavigationEvent] {
        guard overlay != nil else { return [] }
        var events = remove(Set(self[navigator: .overlay].stack), reason: .flowChanged)
        navigators[.overlay] = nil
        navigatorOrder.removeAll { $0 == .overlay }
        overlay = nil
        if followingLink, let link = pending?.link, link.flow == flow {
            pending = nil
            var attempt = self
            if let applied = try? attempt.followLink(link.url) {
                self = attempt
                events += applied
            }
        }
        return events
    }

    /// Whether a navigator belongs to the overlay: its own or one presented above it.
    func isInOverlay(_ navigatorID: NavigatorID) -> Bool {
        base(of: navigatorID) == .overlay
    }

    /// Refuses a navigation change beneath the overlay (`409`, code `overlaid`): while one is
    /// shown, only its own navigators change; the flow beneath waits as it is.
    func requireAboveOverlay(_ navigatorID: NavigatorID?, action: @autoclosure () -> String) throws(NavigationError) {
        guard let overlay, let navigatorID, !isInOverlay(navigatorID) else { return }
        throw NavigationError(category: .conflict, description: overlayMessage(overlay, action: action()), code: "overlaid")
    }

    /// Why the overlay blocks an action, and what to do.
    func overlayMessage(_ overlay: String, action: String) -> String {
        "overlay '\(overlay)' covers the session, so a device cannot \(action) beneath it; the flow beneath waits as it is: \(overlayEnd(overlay))"
    }

    /// How an overlay leaves, in words.
    func overlayEnd(_ overlay: String) -> String {
        let completion = app.flows[overlay]?.completes.map { "once its root finishes with 'success' (setting '\($0)') or " } ?? "once "
        return "it leaves \(completion)its launch rule no longer holds (POST …/flags)"
    }
}
