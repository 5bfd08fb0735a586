import MinervaCoordinator
import MinervaJSON

/// A navigation request read from its body, ready to run on a session's tree.
enum NavigationCommand {
    case push(from: String?, screen: String, params: [String: JSONValue])
    case present(from: String?, screen: String, params: [String: JSONValue], style: String?, embedInNavigation: Bool?)
    case dismiss(node: String?)
    case pop(navigator: String?, to: String?, toRoot: Bool)
    case setRoot(navigator: String?, stack: [(screen: String, params: [String: JSONValue])])
    case navigate(from: String?, screen: String, params: [String: JSONValue])
    case deepLink(url: String)
    case finish(node: String, status: String, value: JSONValue?)
    case selectTab(String)
    case flags(set: [String], clear: [String])

    /// Runs the command on `tree`.
    /// - Returns: the events it caused.
    /// - Throws: `404`, `422` or `409`, in that order of checks; the tree is unchanged then.
    func apply(to tree: inout CoordinatorTree) throws(APIError) -> [NavigationEvent] {
        switch self {
        case let .push(from, screen, params):
            return try model { () throws(NavigationError) in try tree.push(screen: screen, params: params, from: from).events }
        case let .present(from, screen, params, styleText, embed):
            if let from { try model { () throws(NavigationError) in try tree.requireNode(from) } }
            let style = try enumValue(styleText, field: "style", as: ModalStyle.self)
            return try model { () throws(NavigationError) in
                try tree.present(screen: screen, params: params, from: from, style: style, embedInNavigation: embed).events
            }
        case let .dismiss(node):
            return try model { () throws(NavigationError) in try tree.dismiss(node: node) }
        case let .pop(navigator, to, toRoot):
            if let to, toRoot {
                try model { () throws(NavigationError) in
                    if let navigator { try tree.requireNavigator(navigator) }
                    try tree.requireNode(to)
                }
                throw .unprocessable("give either 'to' or 'toRoot', not both")
            }
            let target: CoordinatorTree.PopTarget = to.map { .to($0) } ?? (toRoot ? .root : .top)
            return try model { () throws(NavigationError) in try tree.pop(navigator: navigator, target: target) }
        case let .setRoot(navigator, stack):
            return try model { () throws(NavigationError) in try tree.setRoot(navigator: navigator, stack: stack).events }
        case let .navigate(from, screen, params):
            return try model { () throws(NavigationError) in try tree.navigate(screen: screen, params: params, from: from).events }
        case let .deepLink(url):
            return try model { () throws(NavigationError) in try tree.deepLink(url).events }
        case let .finish(node, statusText, value):
            try model { () throws(NavigationError) in try tree.requireNode(node) }
            let status = try enumValue(statusText, field: "result.status", as: CoordinatorTree.FlowStatus.self)!
            return try model { () throws(NavigationError) in try tree.finish(node: node, status: status, value: value) }
        case let .selectTab(tab):
            try model { () throws(NavigationError) in try tree.selectTab(tab) }
            return []
        case let .flags(set, clear):
            try model { () throws(NavigationError) in try tree.updateFlags(set: set, clear: clear) }
            return []
        }
    }
}

/// Runs a model operation, turning its refusal into the API's error.
private func model<T>(_ operation: () throws(NavigationError) -> T) throws(APIError) -> T {
    do throws(NavigationError) {
        return try operation()
    } catch {
        throw APIError(error)
    }
}

extension APIError {
    /// The status of a refused navigation: `404` unknown, `422` invalid, `409` not possible now.
    init(_ error: NavigationError) {
        switch error.category {
        case .notFound: self = .notFound(error.description)
        case .invalid: self = .unprocessable(error.description)
        case .conflict: self = .conflict(error.description)
        }
    }
}
