extension CoordinatorTree {
    /// The node an id the tree itself handed out names: a parent, a child, a stack's entry, a
    /// focus, a node an operation just made or found, an id ``resolve(node:)`` returned. Only the
    /// model makes node ids, and the tree keeps every id it handed out naming a node until that
    /// node leaves (``invariantViolation``).
    public internal(set) subscript(node id: NodeID) -> Node {
        get { nodes[id]! }
        _modify { yield &nodes[id]! }
    }

    /// The navigator an id the tree itself handed out names: a node's, a navigator's parent or
    /// what it presents, a base navigator of the flow. As for ``subscript(node:)``, the tree keeps
    /// every such id naming a navigator.
    public internal(set) subscript(navigator id: NavigatorID) -> Navigator {
        get { navigators[id]! }
        _modify { yield &navigators[id]! }
    }

    /// The flow the session runs: the app declares every flow a tree enters (``AppDescription``
    /// checks that each flow a rule names exists, and a tree moves to another app only when it does).
    var currentFlow: AppDescription.Flow {
        app.flows[flow]!
    }
}

extension Node {
    /// The navigator whose stack holds a node other than the app coordinator (every other node
    /// stands on one stack).
    var stackNavigator: NavigatorID {
        navigator!
    }

    /// The coordinator that started a node other than the app coordinator.
    var parentID: NodeID {
        parent!
    }
}

extension Navigator {
    /// The top of a navigator that shows something: a presented navigator always does (it goes
    /// with its last node), and so do the navigator the focus is on and a tab's.
    var top: NodeID {
        stack.last!
    }
}

extension Array where Element: Equatable {
    /// The index of an element the array is known to hold (a node on the stack it was found on,
    /// a column of the split view, a child of its parent).
    func index(ofKnown element: Element) -> Int {
        firstIndex(of: element)!
    }
}
