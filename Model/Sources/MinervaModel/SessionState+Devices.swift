public import MinervaJSON

extension SessionState {
    /// Where a device's numbered change stands (see ``DeviceChange``).
    /// - Returns: the device's mark when the session applied this number already (the number is at
    ///   or below its newest); `nil` when it is the device's next number (1 for a device the
    ///   session has not seen).
    /// - Throws: `conflict` (code `device_seq_gap`) when the number skips past the next one.
    public func applied(_ change: DeviceChange) throws(SessionError) -> DeviceMark? {
        if let mark = appliedMark(of: change) { return mark }
        let newest = devices[change.device]?.seq ?? 0
        guard change.seq == newest + 1 else {
            throw SessionError(
                .conflict,
                "device '\(change.device)' numbered this change \(change.seq), but the session's next number for it is \(newest + 1); send the changes in between first, or number this one \(newest + 1)",
                code: "device_seq_gap")
        }
        return nil
    }

    /// The device's mark when the session applied this number already (at or below its newest);
    /// `nil` otherwise, a gap included (``applied(_:)`` tells a gap apart).
    public func appliedMark(of change: DeviceChange) -> DeviceMark? {
        guard let mark = devices[change.device], change.seq <= mark.seq else { return nil }
        return mark
    }

    /// Keeps a device's number for the change that made this version, and counts a new device
    /// for the session's size limit.
    mutating func keep(_ change: DeviceChange) {
        if devices.updateValue(DeviceMark(seq: change.seq, version: version), forKey: change.device) == nil {
            byteCount += DeviceMark.byteCount(ofDevice: change.device)
        }
    }
}

extension DeviceMark {
    /// The members of a device's mark as documents and records write it.
    static let documentKeys: JSONKeys = ["seq", "version"]

    /// Writes the marks as one object, `{"<device>": {"seq", "version"}, …}`, devices in order
    /// of their ids: the state document's `devices` and a session head's.
    public static func write(_ devices: [String: DeviceMark], into writer: inout JSONWriter) {
        writer.beginObject()
        for device in devices.keys.sorted() {
            guard let mark = devices[device] else { continue }
            writer.key(string: device)
            writer.beginObject()
            writer.field("seq", mark.seq)
            writer.field("version", mark.version)
            writer.endObject()
        }
        writer.endObject()
    }

    /// Reads the marks as ``write(_:into:)`` writes them, from `key` of an object that may carry
    /// them (empty when it does not).
    /// - Throws: ``JSONReadError`` when they are not device marks.
    public static func read(_ key: String, of reader: JSONObjectReader) throws(JSONReadError) -> [String: DeviceMark] {
        guard let members = try reader.optionalObject(key) else { return [:] }
        var devices: [String: DeviceMark] = [:]
        for (device, value) in members {
            do throws(JSONReadError) {
                let mark = try JSONObjectReader(value, keys: documentKeys)
                let seq = try mark.int("seq")
                guard (try? DeviceChange(device: device, seq: seq)) != nil else {
                    throw mark.error("not a device id with a change number from 1 to \(DeviceChange.maxSeq)")
                }
                devices[device] = DeviceMark(seq: seq, version: try mark.int("version"))
            } catch {
                throw reader.error("\(error)", at: .key(key), .key(device))
            }
        }
        return devices
    }
}
