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

    /// Reads the body of `operation`; only type errors (`400`) are raised here.
    init(_ operation: Route.Operation, bytes: [UInt8]) throws(APIError) {
        switch operation {
        case .push:
            let body = try RequestBody(bytes, required: true)
            self = .push(from: try body.string("from"), screen: try body.requiredString("screen"), params: try body.params())
        case .present:
            let body = try RequestBody(bytes, required: true)
            self = .present(
                from: try body.string("from"), screen: try body.requiredString("screen"), params: try body.params(),
                style: try body.string("style"), embedInNavigation: try body.bool("embedInNavigation"))
        case .dismiss:
            let body = try RequestBody(bytes, required: false)
            self = .dismiss(node: try body.string("node"))
        case .pop:
            let body = try RequestBody(bytes, required: false)
            self = .pop(navigator: try body.string("navigator"), to: try body.string("to"), toRoot: try body.bool("toRoot") ?? false)
        case .setRoot:
            let body = try RequestBody(bytes, required: true)
            let navigator = try body.string("navigator")
            if let entries = try body.objects("stack") {
                var stack: [(screen: String, params: [String: JSONValue])] = []
                for (index, entry) in entries.enumerated() {
                    stack.append((try entry.requiredString("screen", path: "stack[\(index)]"), try entry.params("params", path: "stack[\(index)]")))
                }
                self = .setRoot(navigator: navigator, stack: stack)
            } else {
                guard let screen = try body.string("screen") else {
                    throw .invalidRequest("field 'screen' or 'stack' is required")
                }
                self = .setRoot(navigator: navigator, stack: [(screen, try body.params())])
            }
        case .navigate:
            let body = try RequestBody(bytes, required: true)
            self = .navigate(from: try body.string("from"), screen: try body.requiredString("screen"), params: try body.params())
        case .deepLink:
            let body = try RequestBody(bytes, required: true)
            self = .deepLink(url: try body.requiredString("url"))
        case .finish:
            let body = try RequestBody(bytes, required: true)
            let node = try body.requiredString("node")
            guard let result = try body.object("result") else { throw .invalidRequest("field 'result' is required") }
            self = .finish(node: node, status: try result.requiredString("status", path: "result"), value: result.value("value"))
        case .selectTab:
            let body = try RequestBody(bytes, required: true)
            self = .selectTab(try body.requiredString("tab"))
        case .flags:
            let body = try RequestBody(bytes, required: false)
            self = .flags(set: try body.strings("set") ?? [], clear: try body.strings("clear") ?? [])
        }
    }
}
