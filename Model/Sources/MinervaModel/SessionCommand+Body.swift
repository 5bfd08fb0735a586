import MinervaCoordinator
public import MinervaJSON

/// The navigation operations, each `POST /v1/sessions/{id}/{operation}` with a body of its own
/// (the raw value is the path's last segment).
public enum NavigationOperation: String, CaseIterable, Sendable {
    case push, present, dismiss, pop, navigate, finish, flags
    case setRoot = "set-root"
    case deepLink = "deep-link"
    case selectTab = "select-tab"
    case sizeClass = "size-class"
    case displayMode = "display-mode"

    /// The fields the operation's body may carry.
    public var bodyKeys: JSONKeys {
        switch self {
        case .push: ["from", "screen", "params", "sampleLists"]
        case .present: ["from", "screen", "params", "style", "embedInNavigation", "sheet", "anchor", "dismissible", "sampleLists"]
        case .dismiss: ["node", "interactive"]
        case .pop: ["navigator", "to", "toRoot", "interactive", "node"]
        case .setRoot: ["navigator", "screen", "params", "stack", "sampleLists"]
        case .navigate: ["from", "screen", "params", "sheet", "anchor", "dismissible", "sampleLists"]
        case .deepLink: ["url", "sampleLists"]
        case .finish: ["node", "result", "sampleLists"]
        case .selectTab: ["tab", "dismiss"]
        case .flags: ["set", "clear", "sampleLists"]
        case .sizeClass: ["horizontal"]
        case .displayMode: ["mode"]
        }
    }

    /// Whether the operation's body may ask for sample lists (`sampleLists`): those that can add nodes.
    var takesSampleLists: Bool {
        switch self {
        case .dismiss, .pop, .selectTab, .sizeClass, .displayMode: false
        default: true
        }
    }

    /// Whether the operation needs a body (`dismiss`, `pop` and `flags` take none as `{}`).
    public var requiresBody: Bool {
        switch self {
        case .dismiss, .pop, .flags: false
        default: true
        }
    }
}

extension SessionCommand {
    /// Reads the body of `operation` (a JSON object of ``NavigationOperation/bodyKeys``, as the
    /// API takes it). Only the body's shape is checked here; values (screens, nodes, styles) when
    /// the step runs it.
    ///
    /// The operations that can add nodes (push, present, set-root, navigate, deep-link, finish,
    /// flags) also take `sampleLists`: `true` puts their screen's sample list on each node added,
    /// in the same change (``withSampleLists(_:)``).
    /// - Throws: ``JSONReadError`` for a missing field or a wrong JSON type.
    public init(_ operation: NavigationOperation, body: JSONObjectReader) throws(JSONReadError) {
        let command: SessionCommand
        switch operation {
        case .push:
            command = .push(from: try body.optionalString("from"), screen: try body.string("screen"), params: try body.optionalObject("params") ?? [:])
        case .present:
            command = .present(
                from: try body.optionalString("from"), screen: try body.string("screen"), params: try body.optionalObject("params") ?? [:],
                style: try body.optionalString("style"), embedInNavigation: try body.optionalBool("embedInNavigation"),
                settings: try PresentationSettings(members: body))
        case .dismiss:
            command = .dismiss(node: try body.optionalString("node"), interactive: try body.optionalBool("interactive") ?? false)
        case .pop:
            command = .pop(
                navigator: try body.optionalString("navigator"), to: try body.optionalString("to"), toRoot: try body.optionalBool("toRoot") ?? false,
                interactive: try body.optionalBool("interactive") ?? false, node: try body.optionalString("node"))
        case .setRoot:
            command = try Self.setRoot(body)
        case .navigate:
            command = .navigate(
                from: try body.optionalString("from"), screen: try body.string("screen"), params: try body.optionalObject("params") ?? [:],
                settings: try PresentationSettings(members: body))
        case .deepLink:
            command = .deepLink(url: try body.string("url"))
        case .finish:
            let node = try body.string("node")
            let (status, value) = try body.object("result", keys: Self.resultKeys) { result throws(JSONReadError) in
                (try result.string("status"), result.value("value"))
            }
            command = .finish(node: node, status: status, value: value)
        case .selectTab:
            command = .selectTab(try body.string("tab"), dismiss: try body.optionalBool("dismiss") ?? false)
        case .sizeClass:
            command = .sizeClass(try body.string("horizontal"))
        case .displayMode:
            command = .displayMode(try body.string("mode"))
        case .flags:
            command = .flags(set: try body.optionalStrings("set") ?? [], clear: try body.optionalStrings("clear") ?? [])
        }
        if operation.takesSampleLists, try body.optionalBool("sampleLists") == true {
            self = .withSampleLists(command)
        } else {
            self = command
        }
    }

    /// The members of `finish`'s `result`.
    private static let resultKeys: JSONKeys = ["status", "value"]
    /// The members of a `set-root` stack's entry.
    private static let stackEntryKeys: JSONKeys = ["screen", "params", "node"]

    /// `{"navigator"?, "screen", "params"?}` or `{"navigator"?, "stack": [{"screen", "params"?}, …]}`.
    private static func setRoot(_ body: JSONObjectReader) throws(JSONReadError) -> SessionCommand {
        let navigator = try body.optionalString("navigator")
        if body.contains("stack") {
            guard !body.contains("screen"), !body.contains("params") else {
                throw body.error("give either 'stack' or 'screen' (with its 'params'), not both")
            }
            let stack = try body.objects("stack", keys: stackEntryKeys) { entry throws(JSONReadError) -> StackEntry<String> in
                guard let node = try entry.optionalString("node") else {
                    return .screen(try entry.string("screen"), params: try entry.optionalObject("params") ?? [:])
                }
                guard !entry.contains("screen"), !entry.contains("params") else {
                    throw entry.error("give either 'node' (a node kept as it is) or 'screen' with its 'params', not both")
                }
                return .node(node)
            }
            return .setRoot(navigator: navigator, stack: stack)
        }
        guard let screen = try body.optionalString("screen") else { throw body.error("field 'screen' or 'stack' is required") }
        return .setRoot(navigator: navigator, stack: [.screen(screen, params: try body.optionalObject("params") ?? [:])])
    }
}
