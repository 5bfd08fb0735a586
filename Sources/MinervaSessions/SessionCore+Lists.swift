public import MinervaCoordinator
public import MinervaList

extension SessionCore {
    /// The diff of a node's list from version `since` to its current one. A version that the
    /// session's in-memory history forgot (to keep within its budget) is read from the store,
    /// which keeps every version a diff may start from.
    /// - Returns: the diff, or `reload` when `since` is older than the versions kept.
    /// - Throws: `notFound` when the node has no list, `invalid` for a `since` ahead of the list,
    ///   `unavailable` when the store cannot be read.
    public func listAnswer(of session: LiveSession, in state: SessionState, node: NodeID, since: Int) throws(SessionError)
        -> ListHistory.Answer
    {
        guard let history = state.lists[node] else { throw .notFound("node '\(node)' has no list yet; PUT one first") }
        let answer: ListHistory.Answer
        do throws(ListError) {
            answer = try history.diff(since: since)
        } catch {
            throw .invalid(error.description)
        }
        guard case .reload = answer, since >= max(1, history.version - history.retainedVersions) else { return answer }
        do {
            guard let record = try store.listVersion(of: session.id, node: node.description, version: since) else { return .reload }
            let old = try ListContent(record: record.body)
            return .diff(ListDiff(from: old, to: history.current, fromVersion: since, toVersion: history.version))
        } catch {
            logger.error("could not read list version \(since) of \(node) in session \(session.id) from storage: \(error)")
            throw .storeUnreadable
        }
    }
}
