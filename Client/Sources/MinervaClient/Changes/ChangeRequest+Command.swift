import MinervaJSON
import MinervaModel

extension ChangeRequest {
    /// The change as the navigation model reads it: its body read by the server's own readers.
    /// - Throws: ``MinervaError`` 400, as the server answers a body it cannot read.
    func command() throws(MinervaError) -> MinervaModel.SessionCommand {
        do {
            let value = try JSONParser.parse(Array(bodyBytes()))
            switch body {
            case .params(let node, _): return try SessionCommand(.params, node: node, screen: nil, body: value)
            case .ui(let node, _): return try SessionCommand(.ui, node: node, screen: nil, body: value)
            case .presentation(let node, _): return try SessionCommand(.presentation, node: node, screen: nil, body: value)
            case .takeResult(let node, let screen): return try SessionCommand(.results, node: node, screen: screen, body: value)
            case .list(let node, _): return try SessionCommand(.list, node: node, screen: nil, body: value)
            case .listPatch(let node, _): return try SessionCommand(.listPatch, node: node, screen: nil, body: value)
            default:
                guard let navigation = NavigationOperation(rawValue: operation) else { throw MinervaError.unreadable(self, "no such operation") }
                return try SessionCommand(navigation, body: JSONObjectReader(value, keys: navigation.bodyKeys))
            }
        } catch let error as MinervaError {
            throw error
        } catch {
            throw MinervaError.unreadable(self, "\(error)")
        }
    }
}

extension MinervaError {
    /// A change whose body the model cannot read, as the server answers it (`400`).
    static func unreadable(_ request: ChangeRequest, _ reason: String) -> MinervaError {
        MinervaError(status: 400, code: .invalidRequest, message: "\(request.operation): \(reason)")
    }

    /// The model's refusal of a change, as the server answers it: `404`, `422`, or `409` with the model's code.
    init(refusal error: MinervaModel.SessionError) {
        switch error.category {
        case .notFound: self.init(status: 404, code: .notFound, message: error.description)
        case .invalid: self.init(status: 422, code: .unprocessable, message: error.description)
        case .appVersionConflict: self.init(status: 409, code: .appChanged, message: error.description)
        default: self.init(status: 409, code: Code(rawValue: error.code ?? "conflict"), message: error.description)
        }
    }
}
