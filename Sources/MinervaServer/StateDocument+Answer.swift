import MinervaModel
import Synchronization

extension StateDocument {
    /// The size of the last state document the server wrote: the next one's buffer starts from
    /// it (see ``StateDocument/encode(sessionID:state:token:lists:restored:sizeHint:)``).
    private static let lastSize = Atomic<Int>(0)

    /// The state document the server answers with, written into a buffer as large as the last one.
    static func answer(
        sessionID: String, state: SessionState, token: String? = nil, lists: ListDetail = .full, restored: RestoreTarget? = nil
    ) -> [UInt8] {
        let bytes = encode(
            sessionID: sessionID, state: state, token: token, lists: lists, restored: restored, sizeHint: lastSize.load(ordering: .relaxed))
        lastSize.store(bytes.count, ordering: .relaxed)
        return bytes
    }
}
