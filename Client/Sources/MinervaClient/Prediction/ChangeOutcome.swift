/// What became of a change a ``PredictingSession`` applied: each change the app asks for gets
/// exactly one outcome (see ``PredictingSession/outcomes`` for their order).
public enum ChangeOutcome: Hashable, Sendable {
    /// The server applied the change and its state equals the one predicted: nothing is shown again.
    case confirmed(PredictedChange)
    /// The server applied the change but its state differs from the one predicted (another
    /// device's change or an app reload landed first): the server's state is shown, with the
    /// changes still pending applied on it again.
    /// - Parameters:
    ///   - server: the server's state after the change.
    ///   - differences: where the predicted state and the server's differ, as JSON paths of the
    ///     state document (`root.children[0].params.id`, `focus`), lists included.
    case corrected(PredictedChange, server: SessionState, differences: [String])
    /// The change no longer applies and was not applied: the server refused it, or the model
    /// refused it again on the server's newer state. The state shown no longer holds it.
    case dropped(PredictedChange, reason: MinervaError)
    /// The session ended (deleted, or expired while the device was offline) before the change
    /// was applied; the app keeps the change to make it in a new session if it wants.
    case sessionEnded(PredictedChange, reason: MinervaError)

    /// The change this outcome is of.
    public var change: PredictedChange {
        switch self {
        case .confirmed(let change), .corrected(let change, _, _), .dropped(let change, _), .sessionEnded(let change, _): change
        }
    }
}

/// A change as a ``PredictingSession`` made it: the request and the number it was sent with.
public struct PredictedChange: Hashable, Sendable {
    /// The change as it was last sent: what the app asked for, with the node it started from
    /// named and the ids it names renamed as earlier changes made them.
    public let request: ChangeRequest
    /// Its number on this device (`Minerva-Device-Change`), as it was last sent.
    public let seq: Int
    /// Whether the state it makes was predicted and shown before the server answered; false for
    /// a change sent without prediction (the server's model version differs, or the app asked to
    /// wait for the server).
    public let wasPredicted: Bool
}
