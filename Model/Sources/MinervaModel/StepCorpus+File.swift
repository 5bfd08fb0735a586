import MinervaCoordinator
import MinervaJSON

extension StepCorpus {
    /// The members of a corpus file.
    private static let fileKeys: JSONKeys = ["modelVersion", "layout", "flags", "limits", "app", "changes", "state"]
    /// The members of one change.
    private static let changeKeys: JSONKeys = ["operation", "body", "device", "block", "unchanged", "refused"]
    /// The members of a refusal.
    private static let refusalKeys: JSONKeys = ["category", "code"]

    /// Reads a corpus file.
    /// - Throws: when the bytes are not one.
    public init(bytes: [UInt8]) throws {
        let reader = try JSONObjectReader(JSONParser.parse(bytes), keys: Self.fileKeys)
        modelVersion = try reader.int("modelVersion")
        layout = try reader.enumValue("layout", as: Layout.self)
        flags = try reader.strings("flags")
        limits = try reader.object("limits", keys: StepLimits.documentKeys) { limits throws(JSONReadError) in try StepLimits(document: limits) }
        guard let app = reader.value("app"), let state = reader.value("state") else { throw reader.error("'app' and 'state' are required") }
        appSource = app
        finalState = state
        changes = try reader.objects("changes", keys: Self.changeKeys) { change throws(JSONReadError) in
            let name = try change.string("operation")
            guard let operation = Operation(path: name) else { throw change.error("unknown operation '\(name)'", at: .key("operation")) }
            let device = try change.optionalString("device").map { text throws(JSONReadError) in
                guard let device = try? DeviceChange(text: text) else { throw change.error("not <device>/<seq>", at: .key("device")) }
                return device
            }
            let outcome: Outcome
            if let block = try change.optionalArray("block") {
                outcome = .block(block)
            } else if let refusal = try change.optionalObject("refused", keys: Self.refusalKeys, { refusal throws(JSONReadError) in
                Outcome.refused(category: try refusal.string("category"), code: try refusal.optionalString("code"))
            }) {
                outcome = refusal
            } else {
                guard try change.optionalBool("unchanged") == true else { throw change.error("a change needs 'block', 'refused' or 'unchanged'") }
                outcome = .unchanged
            }
            return Change(operation: operation, body: change.value("body") ?? .object([:]), device: device, outcome: outcome)
        }
    }

    /// The corpus as a file: canonical JSON (members sorted) with one change per line, so that a
    /// change of the model shows as the lines of the changes it changed.
    public var bytes: [UInt8] {
        var limitsWriter = JSONWriter()
        limits.write(into: &limitsWriter)
        let lines = changes.map { change in
            var members: [String: JSONValue] = ["operation": .string(change.operation.path), "body": change.body]
            if let device = change.device { members["device"] = .string(device.text) }
            switch change.outcome {
            case .block(let events): members["block"] = .array(events)
            case .unchanged: members["unchanged"] = true
            case .refused(let category, let code): members["refused"] = .object(["category": .string(category), "code": code.map(JSONValue.string) ?? .null])
            }
            return Self.canonical(.object(members))
        }
        let text = "{\"modelVersion\": \(modelVersion), \"layout\": \(Self.canonical(.string(layout.rawValue))), "
            + "\"flags\": \(Self.canonical(.array(flags.map(JSONValue.string)))),\n"
            + "\"limits\": \(String(decoding: limitsWriter.bytes, as: UTF8.self)),\n"
            + "\"app\": \(Self.canonical(appSource)),\n"
            + "\"changes\": [\n\(lines.joined(separator: ",\n"))\n],\n"
            + "\"state\": \(Self.canonical(finalState))}\n"
        return Array(text.utf8)
    }

    /// A value as canonical JSON text.
    private static func canonical(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.canonicalValue(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
