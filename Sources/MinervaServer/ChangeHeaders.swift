import MicroHTTP
import MinervaModel

/// What a change's request says of where it comes from, beside its body: its number on the
/// device that made it (`Minerva-Device`, `Minerva-Device-Seq`), when the device made it
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
    /// - Throws: `400` for a device without a number or a number without a device, a device id or
    ///   number out of bounds, a time that is not an RFC 3339 timestamp, or a model version that
    ///   is not a whole number from 1.
    init(_ request: HTTPRequest) throws(APIError) {
        switch (request.header("minerva-device"), request.header("minerva-device-seq")) {
        case (nil, nil):
            numbered = nil
        case (let device?, let seqText?):
            guard let seq = Int(seqText) else {
                throw .invalidRequest("Minerva-Device-Seq must be a whole number from 1 to \(DeviceChange.maxSeq), not '\(seqText.prefix(64))'")
            }
            do throws(SessionError) {
                numbered = try DeviceChange(device: device, seq: seq)
            } catch {
                throw .invalidRequest("Minerva-Device and Minerva-Device-Seq: \(error.description)")
            }
        case (_?, nil):
            throw .invalidRequest("Minerva-Device needs Minerva-Device-Seq, the change's number on the device")
        case (nil, _?):
            throw .invalidRequest("Minerva-Device-Seq needs Minerva-Device, the id of the device that numbered the change")
        }
        if let text = request.header("minerva-device-time") {
            guard let milliseconds = Timestamp.milliseconds(rfc3339: text) else {
                throw .invalidRequest("Minerva-Device-Time must be an RFC 3339 timestamp (2026-11-29T21:30:00.250Z), not '\(text.prefix(64))'")
            }
            deviceTime = milliseconds
        } else {
            deviceTime = nil
        }
        if let text = request.header("minerva-model-version") {
            guard let version = Int(text), version >= 1 else {
                throw .invalidRequest("Minerva-Model-Version must be a whole number from 1, not '\(text.prefix(64))'")
            }
            clientModelVersion = version
        } else {
            clientModelVersion = nil
        }
    }
}
