import MicroHTTP
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
    /// - Throws: `400` for a device change that is not `<device>/<seq>` within bounds, a time that
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
        if let text = changeField {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let seq = Self.number(parts[1], digits: DeviceChange.maxSeqDigits),
                let change = try? DeviceChange(device: String(parts[0]), seq: seq)
            else {
                throw .invalidRequest(
                    "Minerva-Device-Change must be <device>/<number>: a device id of 1 to \(DeviceChange.maxDeviceBytes) characters of A-Z a-z 0-9 . _ : -, and the change's number on it from 1 to \(DeviceChange.maxSeq) (phone-4f2a/12), not '\(text.prefix(80))'"
                )
            }
            numbered = change
        } else {
            numbered = nil
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
            guard let version = Self.number(text[...], digits: 9) else {
                throw .invalidRequest("Minerva-Model-Version must be a whole number from 1 (at most 9 digits), not '\(text.prefix(64))'")
            }
            clientModelVersion = version
        } else {
            clientModelVersion = nil
        }
    }

    /// A whole number from 1 written with 1 to `digits` decimal digits, the first not 0 (no sign,
    /// no spaces); `nil` otherwise.
    private static func number(_ text: Substring, digits: Int) -> Int? {
        let bytes = text.utf8
        guard let first = bytes.first, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first), bytes.count <= digits,
            bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(text)
    }
}
