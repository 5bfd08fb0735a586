import MinervaJSON

/// What stands between a session's tree and a changed app description (see
/// ``CoordinatorTree/obstacles(to:)``): while anything does, the session stays on its version
/// and runs that version's app.
public struct AppChangeObstacles: Sendable, Equatable {
    /// Why the tree cannot be shown by the new app at all: its flow is gone, or its base
    /// navigators (tabs, layout) differ.
    public var structure: [String] = []
    /// Shown screens the new app lacks or now gives required params the node does not carry.
    public var screens: [String] = []

    /// Whether nothing stands in the way.
    public var isEmpty: Bool { structure.isEmpty && screens.isEmpty }

    /// Everything in the way, in words.
    public var description: String { (structure + screens).joined(separator: "; ") }
}

extension CoordinatorTree {
    /// What keeps this tree from running `newApp`: a tree moves to a new app version only when
    /// its flow is there with the same base navigators and every screen it shows still exists
    /// there with the params it requires.
    public func obstacles(to newApp: AppDescription) -> AppChangeObstacles {
        var obstacles = AppChangeObstacles()
        guard let newFlow = newApp.flows[flow] else {
            obstacles.structure.append("the session's flow '\(flow)' is not one of the app's any more")
            return obstacles
        }
        if let overlay, newApp.flows[overlay]?.overlay != true {
            obstacles.structure.append("the session's overlay '\(overlay)' is not an overlay of the app any more")
        }
        let current = navigatorOrder.filter { navigators[$0]?.isBase == true && $0 != .overlay }
        let wanted: [NavigatorID] =
            switch newFlow.root {
            case .tabs(let tabs, _): tabs.map { Self.navigatorID(forTab: $0.id) }
            case .split(let split): split.columns == 3 ? [.primary, .supplementary, .detail] : [.primary, .detail]
            case .screen: layout == .stack || newApp.declaresFlows ? [.main] : [.primary, .detail]
            }
        if current != wanted {
            let names = { (ids: [NavigatorID]) in ids.map(\.rawValue).joined(separator: ", ") }
            obstacles.structure.append("the session's base navigators are \(names(current)); the app now has \(names(wanted))")
        }
        for id in nodes.keys.sorted() where id != rootID {
            let node = self[node: id]
            guard let entry = newApp.screens[node.screen] else {
                obstacles.screens.append("\(id) shows screen \(Excerpt(node.screen)), which the app no longer has")
                continue
            }
            let missing = entry.params.filter { node.params[$0] == nil || node.params[$0] == .null }
            if !missing.isEmpty {
                obstacles.screens.append("\(id) shows screen \(Excerpt(node.screen)) without params it now requires: \(missing.joined(separator: ", "))")
            }
        }
        return obstacles
    }

    /// Moves the tree to `newApp`: its nodes stay as they are, and when the new launch rules
    /// choose another flow or overlay for its flags, it switches (a kept link whose flow is gone
    /// or no longer later than the session's is dropped, but one waiting under an overlay).
    /// - Precondition: `obstacles(to: newApp)` is empty.
    /// - Returns: the events of the switch, if any.
    public mutating func move(to newApp: AppDescription) -> [NavigationEvent] {
        run(newApp)
        if let link = pending?.link, !(overlay != nil && link.flow == flow),
            newApp.flows[link.flow] == nil || newApp.launchRank(of: link.flow) <= newApp.launchRank(of: flow)
        {
            pending = nil
        }
        return followLaunch()
    }

    /// Serves the tree with `newApp` from now on; its nodes stay as they are.
    /// - Precondition: `obstacles(to: newApp).structure` is empty.
    mutating func run(_ newApp: AppDescription) {
        app = newApp
        restoredUnknownScreens = nodes.values.contains { $0.id != rootID && newApp.screens[$0.screen] == nil }
        takeTitles()
    }

    /// Gives every node its screen's title in ``app`` (the app coordinator has none).
    mutating func takeTitles() {
        for id in nodes.keys where id != rootID {
            self[node: id].title = app.screens[self[node: id].screen]?.title
        }
    }
}
