extension CoordinatorTree {
    /// Checks every structural guarantee of the model and stops the program if one is broken.
    ///
    /// Tests call it after every operation: every node but the app coordinator stands on
    /// exactly one stack (the one it names), parents and children agree, every node is
    /// reachable from the root, presented navigators hang from the navigator that presents
    /// them and hold only descendants of the presenting node, kinds match positions, and the
    /// focus is a node on a stack.
    /// - Complexity: O(n) in the number of nodes.
    public func checkInvariants() {
        let root = nodes[rootID]
        precondition(root != nil, "the app coordinator is missing")
        precondition(root!.navigator == nil && root!.parent == nil && root!.presentation.kind == .app, "the app coordinator is malformed")
        precondition(Set(navigatorOrder) == Set(navigators.keys) && navigatorOrder.count == navigators.count, "navigator order out of step")
        for base in baseNavigators {
            precondition(navigators[base]?.isBase == true, "base navigator \(base) missing")
        }

        var placed: [NodeID: NavigatorID] = [:]
        for (id, navigator) in navigators {
            precondition(navigator.id == id, "navigator keyed under another id")
            for (index, nodeID) in navigator.stack.enumerated() {
                precondition(placed.updateValue(id, forKey: nodeID) == nil, "\(nodeID) stands on two stacks")
                guard let node = nodes[nodeID] else { preconditionFailure("\(nodeID) on \(id) is not in the tree") }
                precondition(node.navigator == id, "\(nodeID) names \(String(describing: node.navigator)) but stands on \(id)")
                let expected = index == 0 ? navigator.rootPresentation : Presentation(.push)
                precondition(node.presentation == expected, "\(nodeID) has kind \(node.presentation) at index \(index) of \(id)")
            }
            if navigator.isBase {
                precondition(navigator.stack.count > 0 || navigator.id == .detail, "base navigator \(id) is empty")
                precondition(baseNavigators.contains(id), "unexpected base navigator \(id)")
            } else {
                precondition(!navigator.stack.isEmpty, "presented navigator \(id) is empty")
                precondition(navigator.embedded || navigator.stack.count == 1, "\(id) is not embedded but holds several nodes")
                let parent = navigators[navigator.parent!]
                precondition(parent?.presentedNavigator == id, "\(id) is not presented by its parent navigator")
                let presenter = nodes[navigator.stack[0]]!.parent!
                precondition(nodes[presenter]?.navigator == navigator.parent, "\(id) is presented from a node of another navigator")
                for nodeID in navigator.stack {
                    precondition(isDescendant(nodeID, of: presenter), "\(nodeID) on \(id) is not below its presenter \(presenter)")
                }
            }
            if let presented = navigator.presentedNavigator {
                precondition(navigators[presented]?.parent == id, "\(id) presents \(presented), which names another parent")
            }
        }
        precondition(placed.count == nodes.count - 1, "\(nodes.count - 1 - placed.count) nodes stand on no stack")

        var reached = 0
        var queue = [rootID]
        while let id = queue.popLast() {
            reached += 1
            let node = nodes[id]!
            for child in node.children {
                precondition(nodes[child]?.parent == id, "\(child) does not name \(id) as parent")
                queue.append(child)
            }
        }
        precondition(reached == nodes.count, "the tree has \(nodes.count) nodes but \(reached) are reachable")
        for node in nodes.values where node.id != rootID {
            precondition(nodes[node.parent!]?.children.contains(node.id) == true, "\(node.id)'s parent does not list it")
            precondition(node.id.number < nextNodeNumber, "\(node.id) is beyond the id counter")
        }
        if let tabs = app.tabs {
            precondition(tabs.contains { $0.id == selectedTab }, "the selected tab is not a tab of the app")
        } else {
            precondition(selectedTab == nil, "a tab is selected in an app without tabs")
        }
        if let pending {
            precondition(nodes[pending.guardNode] != nil, "the pending target's guard flow is gone")
            precondition(!pending.steps.isEmpty, "a pending target without steps")
        }
        let focused = nodes[focus]
        precondition(focused != nil && focused!.id != rootID, "the focus is not a node on a stack")
    }

    private func isDescendant(_ id: NodeID, of ancestor: NodeID) -> Bool {
        var current = nodes[id]?.parent
        while let next = current {
            if next == ancestor { return true }
            current = nodes[next]?.parent
        }
        return false
    }
}
