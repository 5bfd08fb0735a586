public import Foundation

/// The fields every event carries: its place in the change log, the version its change made,
/// when, and on the last event of a change's block the focus after it.
public struct EventFields: Codable, Hashable, Sendable {
    /// The event's number in the session's change log: 1, 2, 3, … without gaps.
    public var seq: Int
    /// The session version the change produced (the same for its whole block).
    public var version: Int
    /// Server time of the change.
    public var at: Date
    /// Whether this is the last event of its change's block.
    public var isFinal: Bool
    /// On the last event of a block: the focus after it (the state's `focus`); nil elsewhere and
    /// on events stored before the server kept it.
    public var focus: String?
    /// On the last event of a block whose change made ids none of its events show: the state's
    /// ``SessionState/nextNode`` after it; nil otherwise (the block's `added` events give it).
    public var nextNode: Int?
    /// With ``nextNode``: the state's ``SessionState/nextNavigator`` after the block.
    public var nextNavigator: Int?
    /// On the last event of a block a device numbered (`Minerva-Device-Change`): the device; nil otherwise.
    public var device: String?
    /// With ``device``: the change's number on it.
    public var deviceSeq: Int?

    private enum CodingKeys: String, CodingKey {
        case seq, version, at, focus, nextNode, nextNavigator, device, deviceSeq
        case isFinal = "final"
    }

    /// Fields of an event.
    public init(
        seq: Int, version: Int, at: Date, isFinal: Bool = false, focus: String? = nil, nextNode: Int? = nil, nextNavigator: Int? = nil,
        device: String? = nil, deviceSeq: Int? = nil
    ) {
        self.seq = seq
        self.version = version
        self.at = at
        self.isFinal = isFinal
        self.focus = focus
        self.nextNode = nextNode
        self.nextNavigator = nextNavigator
        self.device = device
        self.deviceSeq = deviceSeq
    }

    /// Reads the fields; `final` is present only on the last event of a block.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seq = try container.decode(Int.self, forKey: .seq)
        version = try container.decode(Int.self, forKey: .version)
        at = try container.decode(Date.self, forKey: .at)
        isFinal = try container.decodeIfPresent(Bool.self, forKey: .isFinal) ?? false
        focus = try container.decodeIfPresent(String.self, forKey: .focus)
        nextNode = try container.decodeIfPresent(Int.self, forKey: .nextNode)
        nextNavigator = try container.decodeIfPresent(Int.self, forKey: .nextNavigator)
        device = try container.decodeIfPresent(String.self, forKey: .device)
        deviceSeq = try container.decodeIfPresent(Int.self, forKey: .deviceSeq)
    }

    /// Writes the fields as the server does (`final` only when true).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seq, forKey: .seq)
        try container.encode(version, forKey: .version)
        try container.encode(at, forKey: .at)
        if isFinal { try container.encode(true, forKey: .isFinal) }
        try container.encodeIfPresent(focus, forKey: .focus)
        try container.encodeIfPresent(nextNode, forKey: .nextNode)
        try container.encodeIfPresent(nextNavigator, forKey: .nextNavigator)
        try container.encodeIfPresent(device, forKey: .device)
        try container.encodeIfPresent(deviceSeq, forKey: .deviceSeq)
    }
}
