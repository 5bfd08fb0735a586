public import Foundation

/// The changes a ``PredictingSession`` has not yet had answered, as a `Codable` value the app
/// keeps across launches (``PredictingSession/savedQueue()``, then
/// ``PredictingSession/start(_:device:restoring:)``): each change applies exactly once for as long
/// as the session lives, by its device number, however often the queue is restored. It holds what
/// the device knew of the session too, so that an app launched offline keeps navigating on it.
public struct SavedQueue: Codable, Hashable, Sendable {
    /// The session the changes are of.
    public var session: String
    /// The device that numbered them.
    public var device: String
    /// The navigation model version that predicted them: restored under another one, they are
    /// sent without prediction.
    public var modelVersion: Int
    /// The changes, oldest first.
    public var changes: [Change]
    /// The session's newest state the device had confirmed: what the changes are predicted on
    /// when the queue is restored while the server cannot be reached.
    public var confirmed: SessionState
    /// The server's model version and limits, as it last said them.
    public var server: ServerInfo
    /// The app description the confirmed state runs, nil when the model could not read it.
    public var app: AppDescription?

    /// One queued change.
    public struct Change: Codable, Hashable, Sendable {
        /// What the app asked for.
        public var request: ChangeRequest
        /// Its number on the device.
        public var seq: Int
        /// Its `Idempotency-Key`.
        public var key: String
        /// When the device made it (`Minerva-Device-Time`).
        public var madeAt: Date
        /// Whether it was sent with its number: an answer that says the number was applied is then its own.
        public var sent: Bool
        /// Whether it waits for the server rather than being predicted (the app asked it to, or
        /// it was saved under another model version).
        public var waitsForServer: Bool
    }
}
