import MinervaCoordinator
import MinervaJSON
import MinervaModel
import MinervaSessions

/// The navigation operations, each `POST /v1/sessions/{id}/{operation}` with a body of its own.
enum NavigationOperation {
    case push, present, dismiss, pop, navigate, finish, flags, setRoot, deepLink, selectTab, sizeClass
}

extension SessionCommand {
    /// Reads the body of `operation`: a JSON object of that operation's fields and no others.
    /// Only the body's shape is checked here; values (screens, nodes, styles) when it runs.
    /// - Throws: `400` for a missing body or field, a wrong JSON type, or an unknown field
    ///   (naming it and the nearest known one: `pop {"to_root": true}` never pops one screen).
    ///
    /// The operations that can add nodes (push, present, set-root, navigate, deep-link, finish,
    /// flags) also take `sampleLists`: `true` puts their screen's sample list on each node added,
    /// in the same change (``withSampleLists(_:)``).
    init(_ operation: NavigationOperation, bytes: [UInt8]) throws(APIError) {
        switch operation {
        case .push:
            self = try readBody(bytes, required: true, keys: Fields.push) { body throws(JSONReadError) in
                try Self.sampling(body, .push(from: try body.optionalString("from"), screen: try body.string("screen"), params: try body.optionalObject("params") ?? [:]))
            }
        case .present:
            self = try readBody(bytes, required: true, keys: Fields.present) { body throws(JSONReadError) in
                try Self.sampling(
                    body,
                    .present(
                        from: try body.optionalString("from"), screen: try body.string("screen"), params: try body.optionalObject("params") ?? [:],
                        style: try body.optionalString("style"), embedInNavigation: try body.optionalBool("embedInNavigation"),
                        settings: try PresentationSettings(members: body)))
            }
        case .dismiss:
            self = try readBody(bytes, required: false, keys: Fields.dismiss) { body throws(JSONReadError) in
                .dismiss(node: try body.optionalString("node"), interactive: try body.optionalBool("interactive") ?? false)
            }
        case .pop:
            self = try readBody(bytes, required: false, keys: Fields.pop) { body throws(JSONReadError) in
                .pop(
                    navigator: try body.optionalString("navigator"), to: try body.optionalString("to"), toRoot: try body.optionalBool("toRoot") ?? false,
                    interactive: try body.optionalBool("interactive") ?? false)
            }
        case .setRoot:
            self = try readBody(bytes, required: true, keys: Fields.setRoot) { body throws(JSONReadError) in try Self.sampling(body, try Self.setRoot(body)) }
        case .navigate:
            self = try readBody(bytes, required: true, keys: Fields.navigate) { body throws(JSONReadError) in
                try Self.sampling(
                    body,
                    .navigate(
                        from: try body.optionalString("from"), screen: try body.string("screen"), params: try body.optionalObject("params") ?? [:],
                        settings: try PresentationSettings(members: body)))
            }
        case .deepLink:
            self = try readBody(bytes, required: true, keys: Fields.deepLink) { body throws(JSONReadError) in
                try Self.sampling(body, .deepLink(url: try body.string("url")))
            }
        case .finish:
            self = try readBody(bytes, required: true, keys: Fields.finish) { body throws(JSONReadError) in
                let node = try body.string("node")
                let (status, value) = try body.object("result", keys: Fields.result) { result throws(JSONReadError) in
                    (try result.string("status"), result.value("value"))
                }
                return try Self.sampling(body, .finish(node: node, status: status, value: value))
            }
        case .selectTab:
            self = try readBody(bytes, required: true, keys: Fields.selectTab) { body throws(JSONReadError) in
                .selectTab(try body.string("tab"), dismiss: try body.optionalBool("dismiss") ?? false)
            }
        case .sizeClass:
            self = try readBody(bytes, required: true, keys: Fields.sizeClass) { body throws(JSONReadError) in
                .sizeClass(try body.string("horizontal"))
            }
        case .flags:
            self = try readBody(bytes, required: false, keys: Fields.flags) { body throws(JSONReadError) in
                try Self.sampling(body, .flags(set: try body.optionalStrings("set") ?? [], clear: try body.optionalStrings("clear") ?? []))
            }
        }
    }

    /// `command`, asked with the body's `sampleLists` (`true`) to put sample lists on the nodes it adds.
    private static func sampling(_ body: JSONObjectReader, _ command: SessionCommand) throws(JSONReadError) -> SessionCommand {
        try body.optionalBool("sampleLists") == true ? .withSampleLists(command) : command
    }

    /// `{"navigator"?, "screen", "params"?}` or `{"navigator"?, "stack": [{"screen", "params"?}, …]}`.
    private static func setRoot(_ body: JSONObjectReader) throws(JSONReadError) -> SessionCommand {
        let navigator = try body.optionalString("navigator")
        if body.contains("stack") {
            guard !body.contains("screen"), !body.contains("params") else {
                throw body.error("give either 'stack' or 'screen' (with its 'params'), not both")
            }
            let stack = try body.objects("stack", keys: Fields.stackEntry) { entry throws(JSONReadError) -> StackEntry<String> in
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

/// The fields each operation's body may carry.
private enum Fields {
    static let push: JSONKeys = ["from", "screen", "params", "sampleLists"]
    static let present: JSONKeys = ["from", "screen", "params", "style", "embedInNavigation", "sheet", "anchor", "dismissible", "sampleLists"]
    static let dismiss: JSONKeys = ["node", "interactive"]
    static let pop: JSONKeys = ["navigator", "to", "toRoot", "interactive"]
    static let setRoot: JSONKeys = ["navigator", "screen", "params", "stack", "sampleLists"]
    static let stackEntry: JSONKeys = ["screen", "params", "node"]
    static let navigate: JSONKeys = ["from", "screen", "params", "sheet", "anchor", "dismissible", "sampleLists"]
    static let deepLink: JSONKeys = ["url", "sampleLists"]
    static let finish: JSONKeys = ["node", "result", "sampleLists"]
    static let result: JSONKeys = ["status", "value"]
    static let selectTab: JSONKeys = ["tab", "dismiss"]
    static let flags: JSONKeys = ["set", "clear", "sampleLists"]
    static let sizeClass: JSONKeys = ["horizontal"]
}
