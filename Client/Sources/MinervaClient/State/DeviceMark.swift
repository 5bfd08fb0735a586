/// What a session keeps of one device that numbers its changes (``SessionState/devices``): the
/// newest number the session applied, and the version that change made.
public struct DeviceMark: Codable, Hashable, Sendable {
    /// The device's newest change number the session applied.
    public var seq: Int
    /// The version that change made.
    public var version: Int

    /// A mark (the client reads them from the server; tests and previews make them).
    public init(seq: Int, version: Int) {
        self.seq = seq
        self.version = version
    }
}
