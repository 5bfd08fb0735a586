import DequeModule
import MinervaCoordinator
import MinervaList
import Synchronization

/// One client's session: its secret and its navigation state behind its own lock.
final class Session: Sendable {
    /// The public id (`s_…`).
    let id: String
    /// The bearer token that every request on this session must carry.
    private let token: String
    /// Everything that changes, serialised per session.
    let state: Mutex<SessionState>

    init(id: String, token: String, tree: CoordinatorTree, eventHistory: Int) {
        self.id = id
        self.token = token
        state = Mutex(SessionState(tree: tree, eventHistory: eventHistory))
    }

    /// Whether `candidate` is this session's token, compared in constant time.
    func authorizes(_ candidate: String) -> Bool {
        Token.constantTimeEqual(candidate, token)
    }
}

/// A session's mutable state: the tree, its version and recent events.
struct SessionState: Sendable {
    /// The coordinator tree.
    var tree: CoordinatorTree
    /// Starts at 1 and grows by one with every successful mutation.
    var version = 1
    /// The newest events, oldest first.
    var events: Deque<NavigationEvent> = []
    /// Each node's list, for the nodes that have one.
    var lists: [NodeID: ListHistory] = [:]
    /// How many events are kept.
    let eventHistory: Int

    init(tree: CoordinatorTree, eventHistory: Int) {
        self.tree = tree
        self.eventHistory = eventHistory
    }

    /// Records a successful mutation and the events it caused; lists of removed nodes go with them.
    mutating func commit(_ newEvents: [NavigationEvent]) {
        version += 1
        if !lists.isEmpty {
            for event in newEvents {
                if case .removed = event.kind { lists[event.node] = nil }
            }
        }
        events.append(contentsOf: newEvents)
        if events.count > eventHistory {
            events.removeFirst(events.count - eventHistory)
        }
    }
}
