import MicroHTTP
import MinervaJSON
import MinervaModel

/// What a change's request says of where it comes from, beside its body: its number on the
/// device that made it (`Minerva-Device-Change: <device>/<seq>`), when the device made it
/// (`Minerva-Device-Time`), and the model version the client predicted its outcome with
/// (`Minerva-Model-Version`). Every header is optional; a malformed one is `400`.
struct ChangeHeaders {
    /// The device's number for the change.
    let numbered: DeviceChange?
    /// When the device made the change, in milliseconds since 1970.
    let deviceTime: Int?
    /// The model version the client ran the change with.
    let clientModelVersion: Int?

    /// Reads the headers of a change's request.
    /// - Throws: `400` for a device change that is not `<device>/<seq>` within bounds
    ///   (``DeviceChange/init(text:)``), a time that
    ///   is not an RFC 3339 timestamp, or a model version that is not a whole number from 1.
    init(_ request: HTTPRequest) throws(APIError) {
        // One pass over the fields, the first of each name, looking only at those that start
        // like these: most changes carry none.
        var changeField: String?
        var timeField: String?
        var modelField: String?
        for field in request.headers where field.name.utf8.first == UInt8(ascii: "m") {
            switch field.name {
            case "minerva-device-change": changeField = changeField ?? field.value
            case "minerva-device-time": timeField = timeField ?? field.value
            case "minerva-model-version": modelField = modelField ?? field.value
            default: break
            }
        }
        do throws(SessionError) {
            numbered = try changeField.map { text throws(SessionError) in try DeviceChange(text: text) }
        } catch {
            throw .invalidRequest("Minerva-Device-Change: \(error.description)")
        }
        if let text = timeField {
            guard let milliseconds = Timestamp.milliseconds(rfc3339: text) else {
                throw .invalidRequest("Minerva-Device-Time must be an RFC 3339 timestamp (2026-11-29T21:30:00.250Z), not '\(text.prefix(64))'")
            }
            deviceTime = milliseconds
        } else {
            deviceTime = nil
        }
        if let text = modelField {
            guard let version = Self.number(text, digits: 9) else {
                throw .invalidRequest("Minerva-Model-Version must be a whole number from 1 (at most 9 digits), not '\(text.prefix(64))'")
            }
            clientModelVersion = version
        } else {
            clientModelVersion = nil
        }
    }

    /// A whole number from 1 written with 1 to `digits` decimal digits, the first not 0 (no sign,
    /// no spaces); `nil` otherwise.
    private static func number(_ text: String, digits: Int) -> Int? {
        let bytes = text.utf8
        guard let first = bytes.first, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first), bytes.count <= digits,
            bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text)
    }
}
