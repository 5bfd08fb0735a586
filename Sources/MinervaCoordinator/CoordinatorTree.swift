import MinervaJSON

/// One session's coordinator tree and the navigators that show it.
///
/// The tree always mirrors the screens: every operation either throws
/// ``NavigationError`` and changes nothing, or applies completely and returns the
/// events it caused. Every node that leaves the screen leaves the tree with its subtree.
public struct CoordinatorTree: Sendable {
    /// The app the session runs.
    public let app: AppDescription
    /// How the base navigators are arranged.
    public let layout: Layout
    /// The app coordinator's id (`n0`).
    public let rootID: NodeID
    /// Every node, by id.
    public internal(set) var nodes: [NodeID: Node]
    /// Every navigator, by id.
    public internal(set) var navigators: [NavigatorID: Navigator]
    /// Navigator ids in the order they were made (base navigators first).
    public internal(set) var navigatorOrder: [NavigatorID]
    /// The `seq` of the newest event (0 when none).
    public internal(set) var lastSeq: Int = 0
    var nextNodeNumber = 0
    var nextNavigatorNumber = 1

    /// Starts a session's tree: the app coordinator and the app's root screen on the base navigator.
    /// - Parameters:
    ///   - app: the app description (already validated).
    ///   - layout: `stack` (one base navigator `v0`) or `split` (`primary` and an empty `detail`).
    public init(app: AppDescription, layout: Layout = .stack) {
        self.app = app
        self.layout = layout
        rootID = NodeID(0)
        nextNodeNumber = 1
        nodes = [rootID: Node(id: rootID, screen: app.name, params: [:], presentation: Presentation(.app), navigator: nil, parent: nil, children: [])]
        navigators = [:]
        navigatorOrder = []
        let baseID: NavigatorID = layout == .stack ? .main : .primary
        addNavigator(Navigator(id: baseID, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .root)))
        if layout == .split {
            addNavigator(Navigator(id: .detail, stack: [], presentedNavigator: nil, parent: nil, embedded: true, role: .base(rootKind: .detail)))
        }
        let first = makeNode(screen: app.rootScreen, params: [:], presentation: Presentation(.root), navigator: baseID, parent: rootID)
        navigators[baseID]!.stack.append(first)
    }

    /// The base navigators, in layout order.
    public var baseNavigators: [NavigatorID] {
        layout == .stack ? [.main] : [.primary, .detail]
    }

    /// The top-most visible node: from the visible base navigator follow the presented
    /// navigators to the last one, and take the top of its stack.
    public var focus: NodeID {
        var navigatorID = visibleBaseNavigator
        while let next = navigators[navigatorID]!.presentedNavigator {
            navigatorID = next
        }
        return navigators[navigatorID]!.stack.last!
    }

    /// The base navigator on screen: in split, `detail` when it holds anything, else `primary`.
    var visibleBaseNavigator: NavigatorID {
        switch layout {
        case .stack:
            return .main
        case .split:
            if navigators[.primary]!.presentedNavigator == nil, !navigators[.detail]!.stack.isEmpty {
                return .detail
            }
            return .primary
        }
    }

    /// Every node in on-screen order, bottom-most first: each navigator's stack from the
    /// bottom, then what it presents.
    /// - Complexity: O(n) in the number of nodes.
    public var nodesInScreenOrder: [NodeID] {
        var order: [NodeID] = []
        order.reserveCapacity(nodes.count)
        for base in baseNavigators {
            var navigatorID: NavigatorID? = base
            while let current = navigatorID, let navigator = navigators[current] {
                order.append(contentsOf: navigator.stack)
                navigatorID = navigator.presentedNavigator
            }
        }
        return order
    }

    // MARK: - Building blocks

    mutating func addNavigator(_ navigator: Navigator) {
        navigators[navigator.id] = navigator
        navigatorOrder.append(navigator.id)
    }

    mutating func makeNavigatorID() -> NavigatorID {
        defer { nextNavigatorNumber += 1 }
        return NavigatorID("v\(nextNavigatorNumber)")
    }

    /// Creates a node as a child of `parent`; the caller puts it on `navigator`'s stack.
    mutating func makeNode(
        screen: String, params: [String: JSONValue], presentation: Presentation, navigator: NavigatorID, parent: NodeID
    ) -> NodeID {
        let id = NodeID(nextNodeNumber)
        nextNodeNumber += 1
        nodes[id] = Node(id: id, screen: screen, params: params, presentation: presentation, navigator: navigator, parent: parent, children: [])
        nodes[parent]!.children.append(id)
        return id
    }

    mutating func nextEvent(_ kind: NavigationEvent.Kind, node: NodeID, screen: String) -> NavigationEvent {
        lastSeq += 1
        return NavigationEvent(seq: lastSeq, kind: kind, node: node, screen: screen)
    }
}

extension CoordinatorTree: Equatable {
    /// Two trees are equal when they hold the same nodes, navigators and counters.
    public static func == (lhs: CoordinatorTree, rhs: CoordinatorTree) -> Bool {
        lhs.layout == rhs.layout && lhs.nodes == rhs.nodes && lhs.navigators == rhs.navigators
            && lhs.navigatorOrder == rhs.navigatorOrder && lhs.lastSeq == rhs.lastSeq
            && lhs.nextNodeNumber == rhs.nextNodeNumber && lhs.nextNavigatorNumber == rhs.nextNavigatorNumber
    }
}
