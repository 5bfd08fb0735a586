import Foundation

/// The preconditions and numbers one change sends with every attempt.
struct ChangeHeaders: Sendable {
    /// `If-Match`: the version the change was made on.
    let ifMatch: String
    /// `Idempotency-Key`: the same for every attempt of one change.
    let key: String
    /// `Minerva-Device-Change`: `<device>/<seq>`, for a numbered change.
    var deviceChange: String? = nil
    /// `Minerva-Device-Time`: when the device made the change (RFC 3339).
    var deviceTime: String? = nil
    /// `Minerva-Model-Version`: the model version the client predicted the change with.
    var modelVersion: String? = nil
}

/// What the server answered to a change.
struct ChangeAnswer: Sendable {
    /// The state document, for every change but a list `PUT` answered the first time.
    var state: SessionState?
    /// A list `PUT`'s answer (the first time).
    var list: ListPutAnswer?
    /// The session's version after the change (the answer's `ETag`).
    var version: Int?
    /// Whether the change's device number was applied before (`Minerva-Already-Applied`): nothing was applied again.
    var alreadyApplied: Bool
}

extension MinervaSession {
    /// Sends a change made as a value (``ChangeRequest``), as the operation of the same name does:
    /// with the `If-Match` of the version this client last saw, retried by the connection's policy
    /// with the same `Idempotency-Key`.
    /// - Parameter request: the change.
    /// - Returns: the new state; nil for a list `PUT`, which answers the list's diff (see
    ///   ``putList(_:on:)``).
    /// - Throws: ``MinervaError`` for an error answer, as the operation of the same name.
    @discardableResult
    public func apply(_ request: ChangeRequest) async throws -> SessionState? {
        let headers = ChangeHeaders(ifMatch: ifMatch, key: UUID().uuidString)
        let answer = try await connection.retryPolicy.run { try await send(request, headers: headers) }
        if let version = answer.version { saw(version: version) }
        guard let state = answer.state else { return nil }
        received(state)
        return state
    }

    /// Sends one change that answers the state document (see ``apply(_:)``).
    func change(_ request: ChangeRequest) async throws -> SessionState {
        guard let state = try await apply(request) else { throw MinervaError.unexpectedAnswer(to: request) }
        return state
    }

    /// Sends one attempt of a change.
    /// - Throws: ``MinervaError`` for an error answer; the transport's error.
    nonisolated func send(_ request: ChangeRequest, headers: ChangeHeaders) async throws -> ChangeAnswer {
        switch request.body {
        case .push(let body):
            return try .init(try await client.push(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .present(let body):
            return try .init(try await client.present(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .dismiss(let body):
            return try .init(try await client.dismiss(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .pop(let body):
            return try .init(try await client.pop(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .setRoot(let body):
            return try .init(try await client.setRoot(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .navigate(let body):
            return try .init(try await client.navigate(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .deepLink(let body):
            return try .init(try await client.deepLink(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .finish(let body):
            return try .init(try await client.finish(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .selectTab(let body):
            return try .init(try await client.selectTab(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .sizeClass(let body):
            return try .init(try await client.setSizeClass(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .displayMode(let body):
            return try .init(try await client.setDisplayMode(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .flags(let body):
            return try .init(try await client.flags(path: .init(id: id), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .params(let node, let body):
            return try .init(try await client.updateParams(path: .init(id: id, node: node), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .ui(let node, let body):
            return try .init(try await client.putUI(path: .init(id: id, node: node), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .presentation(let node, let body):
            return try .init(try await client.changePresentation(path: .init(id: id, node: node), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok)
        case .takeResult(let node, let screen):
            return try .init(try await client.consumeResult(path: .init(id: id, node: node, screen: screen), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion)).ok)
        case .list(let node, let body):
            let ok = try await client.putList(path: .init(id: id, node: node), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok
            return switch try ok.body.json {
            case .ListPutAnswer(let list): ChangeAnswer(list: list, eTag: ok.headers.eTag, alreadyApplied: ok.headers.minervaAlreadyApplied)
            case .State(let state): ChangeAnswer(state: state.value1, alreadyApplied: ok.headers.minervaAlreadyApplied)
            }
        case .listPatch(let node, let body):
            let ok = try await client.patchList(path: .init(id: id, node: node), headers: .init(ifMatch: headers.ifMatch, idempotencyKey: headers.key, minervaDeviceChange: headers.deviceChange, minervaDeviceTime: headers.deviceTime, minervaModelVersion: headers.modelVersion), body: .json(body)).ok
            return switch try ok.body.json {
            case .ListPutAnswer(let list): ChangeAnswer(list: list, eTag: ok.headers.eTag, alreadyApplied: ok.headers.minervaAlreadyApplied)
            case .State(let state): ChangeAnswer(state: state.value1, alreadyApplied: ok.headers.minervaAlreadyApplied)
            }
        }
    }
}

extension ChangeAnswer {
    /// The answer of an operation that answers the state document.
    init(_ ok: Components.Responses.State) throws {
        self.init(state: try ok.body.json.value1, alreadyApplied: ok.headers.minervaAlreadyApplied)
    }

    /// A state document answered, with its `Minerva-Already-Applied` header.
    init(state: SessionState, alreadyApplied: Components.Headers.AlreadyApplied?) {
        self.init(state: state, version: state.version, alreadyApplied: alreadyApplied != nil)
    }

    /// A list `PUT`'s or `PATCH`'s own answer, with its `ETag` and `Minerva-Already-Applied` header.
    init(list: ListPutAnswer, eTag: String, alreadyApplied: Components.Headers.AlreadyApplied?) {
        self.init(list: list, version: Int(entityTag: eTag), alreadyApplied: alreadyApplied != nil)
    }
}

extension Int {
    /// The version an `ETag` names (`"12"`).
    init?(entityTag: String) {
        self.init(entityTag.trimmingCharacters(in: ["\"", "W", "/"]))
    }
}

extension MinervaError {
    /// An answer the operation does not give (a list's diff where a state was asked).
    static func unexpectedAnswer(to request: ChangeRequest) -> MinervaError {
        MinervaError(status: 200, code: nil, message: "the answer to \(request.operation) is not the state document")
    }
}
