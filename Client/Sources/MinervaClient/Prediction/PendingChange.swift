import Foundation
import MinervaCoordinator
import MinervaModel

/// A change a ``PredictingSession`` made and the server has not yet answered.
struct PendingChange: Sendable {
    /// What the app asked for, with the ids it names renamed when a change before it made other
    /// ids than predicted (see ``ChangeRequest/renaming(_:)``).
    var request: ChangeRequest
    /// When the device made it: its events' time in the prediction, `Minerva-Device-Time` when sent.
    let madeAt: Date
    /// Whether it may be predicted: not when the app asked to wait for the server, nor when it was
    /// saved under another model version.
    var predictable = true
    /// Its number on the device: the next after the confirmed state's and the pending before it.
    var seq: Int
    /// Its `Idempotency-Key`: the same for every attempt until the server refuses it.
    var key = UUID().uuidString
    /// Whether it was sent with its number (and key): an answer that says the number was applied
    /// is then this change's; before, it is another change's that took the number.
    var sent = false
    /// What the model predicted, on the state before it: nil when it is sent without prediction.
    var prediction: Prediction?
    /// The app's call waiting for the server's state (a change sent without prediction).
    var waiter: CheckedContinuation<SessionState, any Error>?
    /// How often it was predicted again because the session moved on before it arrived (`412`).
    var moves = 0

    /// A prediction: the state it was made on and the state it makes.
    struct Prediction: Sendable {
        /// The version it was predicted on: the change's `If-Match`.
        let basedOn: Int
        /// The model after the change.
        let model: SessionModel
        /// The state document after the change, as the app observed it.
        let document: SessionState
        /// The numbers of the node ids (`n7`) and navigator ids (`v3`) the change made.
        let madeNodes: Range<Int>, madeNavigators: Range<Int>

        /// The prediction of a change that took `base` to `next`.
        init(from base: SessionModel, to next: SessionModel, document: SessionState) {
            basedOn = base.state.version
            model = next
            self.document = document
            let (before, after) = (base.state.tree.idCounters, next.state.tree.idCounters)
            madeNodes = before.nextNode..<after.nextNode
            madeNavigators = before.nextNavigator..<after.nextNavigator
        }

        /// The ids this prediction made, renamed as the server's answer to the change made them:
        /// none when it made the same ones (its id counters are the prediction's), else each to
        /// `""` (which ids the server made is not known from its state alone).
        func renames(toServer server: SessionState) -> [String: String] {
            server.nextNode == document.nextNode && server.nextNavigator == document.nextNavigator ? [:] : renames(to: nil)
        }

        /// The ids this prediction made, each renamed to the one `newer` made in its place; to
        /// `""` (an id of nothing) when `newer` made another number of them or is nil (the change
        /// was dropped).
        func renames(to newer: Prediction?) -> [String: String] {
            var renames: [String: String] = [:]
            for (prefix, old, new) in [("n", madeNodes, newer?.madeNodes), ("v", madeNavigators, newer?.madeNavigators)] {
                for (index, number) in old.enumerated() {
                    let renamed = new.flatMap { $0.count == old.count ? "\(prefix)\($0.lowerBound + index)" : nil } ?? ""
                    if renamed != "\(prefix)\(number)" { renames["\(prefix)\(number)"] = renamed }
                }
            }
            return renames
        }
    }

    /// The change as its outcome names it.
    var predicted: PredictedChange {
        PredictedChange(request: request, seq: seq, wasPredicted: prediction != nil)
    }

    /// The change as a saved queue keeps it.
    var saved: SavedQueue.Change {
        SavedQueue.Change(request: request, seq: seq, key: key, madeAt: madeAt, sent: sent, waitsForServer: !predictable)
    }
}
