public import MinervaJSON

/// A change's number on the device that made it (`Minerva-Device-Change: <device>/<seq>`): each
/// device numbers its changes of a session 1, 2, 3, … and the session keeps, per device, the
/// newest number it applied (``DeviceMark``), for as long as it lives. A change at or below it is
/// already applied, whatever the idempotency window; one past the next number is a gap (`409`).
/// A refused change takes no number: the device's next change takes it.
public struct DeviceChange: Sendable, Hashable {
    /// The device's id: 1 to ``maxDeviceBytes`` of `A-Z a-z 0-9 . _ : -`.
    public let device: String
    /// The change's number on the device: 1 to ``maxSeq``.
    public let seq: Int

    /// Bytes of a device id at most.
    public static let maxDeviceBytes = 64
    /// The highest number a change may carry: 15 digits (below 2⁵³, exact in every JSON reader).
    public static let maxSeq = 999_999_999_999_999
    /// How many digits ``maxSeq`` has.
    public static let maxSeqDigits = 15

    /// Creates a device's change number.
    /// - Throws: `invalid` for an id that is empty, too long or not of the allowed characters, or
    ///   a number outside 1 to ``maxSeq``.
    public init(device: String, seq: Int) throws(SessionError) {
        guard !device.isEmpty, device.utf8.count <= Self.maxDeviceBytes, device.utf8.allSatisfy(Self.isDeviceByte) else {
            throw .invalid("a device id is 1 to \(Self.maxDeviceBytes) characters of A-Z a-z 0-9 . _ : -")
        }
        guard (1...Self.maxSeq).contains(seq) else { throw .invalid("a device's change number is a whole number from 1 to \(Self.maxSeq)") }
        self.device = device
        self.seq = seq
    }

    /// Reads a change number as `Minerva-Device-Change` carries it: `<device>/<seq>`, the number
    /// 1 to ``maxSeqDigits`` decimal digits without a leading zero or a sign.
    /// - Throws: `invalid` for anything else.
    public init(text: String) throws(SessionError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = parts[1].utf8.first, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first),
            parts[1].utf8.count <= Self.maxSeqDigits, parts[1].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let seq = Int(parts[1])
        else {
            throw .invalid(
                "a device's change number is <device>/<number>: a device id of 1 to \(Self.maxDeviceBytes) characters of A-Z a-z 0-9 . _ : -, and the change's number on it from 1 to \(Self.maxSeq) (phone-4f2a/12), not '\(text.prefix(80))'"
            )
        }
        try self.init(device: String(parts[0]), seq: seq)
    }

    /// The change number as `Minerva-Device-Change` carries it: `<device>/<seq>`.
    public var text: String {
        "\(device)/\(seq)"
    }

    /// Whether `byte` may be part of a device id.
    private static func isDeviceByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// Writes `device` and `deviceSeq` into an open object (the final event of the change's block).
    public func writeFields(into writer: inout JSONWriter) {
        writer.field("device", device)
        writer.field("deviceSeq", seq)
    }

    /// Reads `device` and `deviceSeq` from an object that may carry them; `nil` when it carries neither.
    /// - Throws: ``JSONReadError`` when only one is there, or they are not a device change number.
    public init?(optionalFieldsOf reader: JSONObjectReader) throws(JSONReadError) {
        let device = try reader.optionalString("device")
        let seq = try reader.optionalInt("deviceSeq")
        guard device != nil || seq != nil else { return nil }
        guard let device, let seq else { throw reader.error("'device' and 'deviceSeq' come together", at: .key(device == nil ? "deviceSeq" : "device")) }
        do throws(SessionError) {
            self = try DeviceChange(device: device, seq: seq)
        } catch {
            throw reader.error(error.description, at: .key("device"))
        }
    }
}

/// What a session keeps of one device: the newest number of its changes the session applied,
/// and the version that change produced.
public struct DeviceMark: Sendable, Hashable {
    /// The device's newest change number the session applied.
    public let seq: Int
    /// The version that change produced.
    public let version: Int

    /// Creates a mark.
    public init(seq: Int, version: Int) {
        self.seq = seq
        self.version = version
    }

    /// What a device's mark counts for the session's size limit: a fixed share and its id.
    static func byteCount(ofDevice device: String) -> Int {
        64 + device.utf8.count
    }
}
