import Foundation
import OpenAPIRuntime

/// One change of a session as a value: the operation and its body, as the API takes them.
///
/// ``MinervaSession`` sends one with each of its operations; a ``PredictingSession`` also applies
/// it with the navigation model before sending it, and keeps the ones still to send in its
/// ``SavedQueue`` (it is `Codable` as `{"operation", "body"}`, the operation's path after the
/// session's: `navigate`, `nodes/n3/ui`, `nodes/n3/results/login`; a list patch, whose path is the
/// `PUT`'s, `nodes/n3/list-patch`).
///
/// ```swift
/// try await predicting.apply(.push("profile", params: ["userId": "42"]))
/// ```
public struct ChangeRequest: Hashable, Sendable {
    /// The operation with its typed body.
    let body: Body

    /// The operations of a session that change it, each with the body the API takes.
    enum Body: Hashable, Sendable {
        case push(Components.Schemas.PushRequest)
        case present(Components.Schemas.PresentRequest)
        case dismiss(Components.Schemas.DismissRequest)
        case pop(Components.Schemas.PopRequest)
        case setRoot(Components.Schemas.SetRootRequest)
        case navigate(Components.Schemas.NavigateRequest)
        case deepLink(Components.Schemas.DeepLinkRequest)
        case finish(Components.Schemas.FinishRequest)
        case selectTab(Components.Schemas.SelectTabRequest)
        case sizeClass(Components.Schemas.SizeClassRequest)
        case displayMode(Components.Schemas.DisplayModeRequest)
        case flags(Components.Schemas.FlagsRequest)
        case params(node: String, Components.Schemas.ParamsPatchRequest)
        case ui(node: String, OpenAPIObjectContainer)
        case presentation(node: String, Components.Schemas.PresentationChangeRequest)
        case takeResult(node: String, screen: String)
        case list(node: String, Components.Schemas.ListPutRequest)
        case listPatch(node: String, ListPatch)
    }

    /// The operation's path after the session's (`navigate`, `nodes/n3/ui`; `nodes/n3/list-patch`
    /// for a list patch, which `PATCH`es `nodes/n3/list`).
    public var operation: String {
        switch body {
        case .push: "push"
        case .present: "present"
        case .dismiss: "dismiss"
        case .pop: "pop"
        case .setRoot: "set-root"
        case .navigate: "navigate"
        case .deepLink: "deep-link"
        case .finish: "finish"
        case .selectTab: "select-tab"
        case .sizeClass: "size-class"
        case .displayMode: "display-mode"
        case .flags: "flags"
        case .params(let node, _): "nodes/\(node)/params"
        case .ui(let node, _): "nodes/\(node)/ui"
        case .presentation(let node, _): "nodes/\(node)/presentation"
        case .takeResult(let node, let screen): "nodes/\(node)/results/\(screen)"
        case .list(let node, _): "nodes/\(node)/list"
        case .listPatch(let node, _): "nodes/\(node)/list-patch"
        }
    }

    /// The body as JSON, nil for an operation that takes none.
    var bodyValue: (any Encodable & Sendable)? {
        switch body {
        case .push(let body): body
        case .present(let body): body
        case .dismiss(let body): body
        case .pop(let body): body
        case .setRoot(let body): body
        case .navigate(let body): body
        case .deepLink(let body): body
        case .finish(let body): body
        case .selectTab(let body): body
        case .sizeClass(let body): body
        case .displayMode(let body): body
        case .flags(let body): body
        case .params(_, let body): body
        case .ui(_, let body): body
        case .presentation(_, let body): body
        case .takeResult: nil
        case .list(_, let body): body
        case .listPatch(_, let body): body
        }
    }

    /// The body's JSON bytes (`{}` for an operation that takes none).
    func bodyBytes() throws -> Data {
        guard let value = bodyValue else { return Data("{}".utf8) }
        return try JSONEncoder().encode(value)
    }
}

extension ChangeRequest: CustomStringConvertible {
    /// The operation and its body: `push {"screen":"profile"}`.
    public var description: String {
        "\(operation) \((try? bodyBytes()).map { String(decoding: $0, as: UTF8.self) } ?? "{}")"
    }
}

extension ChangeRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case operation, body
    }

    /// Reads a change written by ``encode(to:)``.
    /// - Throws: `DecodingError` for an operation this client does not know or a body that is not its.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let operation = try container.decode(String.self, forKey: .operation)
        func body<Body: Decodable>(_: Body.Type) throws -> Body { try container.decode(Body.self, forKey: .body) }
        let parts = operation.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("push", 1): self.body = .push(try body(Components.Schemas.PushRequest.self))
        case ("present", 1): self.body = .present(try body(Components.Schemas.PresentRequest.self))
        case ("dismiss", 1): self.body = .dismiss(try body(Components.Schemas.DismissRequest.self))
        case ("pop", 1): self.body = .pop(try body(Components.Schemas.PopRequest.self))
        case ("set-root", 1): self.body = .setRoot(try body(Components.Schemas.SetRootRequest.self))
        case ("navigate", 1): self.body = .navigate(try body(Components.Schemas.NavigateRequest.self))
        case ("deep-link", 1): self.body = .deepLink(try body(Components.Schemas.DeepLinkRequest.self))
        case ("finish", 1): self.body = .finish(try body(Components.Schemas.FinishRequest.self))
        case ("select-tab", 1): self.body = .selectTab(try body(Components.Schemas.SelectTabRequest.self))
        case ("size-class", 1): self.body = .sizeClass(try body(Components.Schemas.SizeClassRequest.self))
        case ("display-mode", 1): self.body = .displayMode(try body(Components.Schemas.DisplayModeRequest.self))
        case ("flags", 1): self.body = .flags(try body(Components.Schemas.FlagsRequest.self))
        case ("nodes", 3) where parts[2] == "params": self.body = .params(node: parts[1], try body(Components.Schemas.ParamsPatchRequest.self))
        case ("nodes", 3) where parts[2] == "ui": self.body = .ui(node: parts[1], try body(OpenAPIObjectContainer.self))
        case ("nodes", 3) where parts[2] == "presentation":
            self.body = .presentation(node: parts[1], try body(Components.Schemas.PresentationChangeRequest.self))
        case ("nodes", 4...) where parts[2] == "results": self.body = .takeResult(node: parts[1], screen: parts[3...].joined(separator: "/"))
        case ("nodes", 3) where parts[2] == "list": self.body = .list(node: parts[1], try body(Components.Schemas.ListPutRequest.self))
        case ("nodes", 3) where parts[2] == "list-patch": self.body = .listPatch(node: parts[1], try body(ListPatch.self))
        default:
            throw DecodingError.dataCorruptedError(forKey: .operation, in: container, debugDescription: "'\(operation)' is not an operation of a session")
        }
    }

    /// Writes `{"operation", "body"}` (no `body` for an operation that takes none).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(operation, forKey: .operation)
        if let value = bodyValue { try container.encode(value, forKey: .body) }
    }
}
