import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaList

extension MinervaAPI {
    /// `PUT /v1/sessions/{id}/nodes/{node}/list`: replaces the node's list and answers the diff.
    /// A PUT is a session mutation: the session version grows and `If-Match` applies.
    func putList(_ nodeText: String, on session: Session, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let parsed = parse { () throws(APIError) in try ListBody.sections(request.body) }
        return try mutate(session, request, parsed: parsed) { state, sections throws(APIError) in
            let node = try Self.existingNode(nodeText, in: state.tree)
            let content: ListContent
            do throws(ListError) {
                content = try ListContent(sections: sections, maximumItems: configuration.maxListItems)
            } catch {
                throw .unprocessable(error.description)
            }
            let started = ContinuousClock.now
            let diff: ListDiff
            defer {
                let elapsed = ContinuousClock.now - started
                metrics.listDiff(nanoseconds: elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            }
            if state.lists[node] != nil {
                diff = state.lists[node]!.replace(with: content)
            } else {
                let history = ListHistory(content: content, retainedVersions: configuration.listHistory)
                state.lists[node] = history
                diff = history.latestDiff
            }
            state.commit([])
            var writer = JSONWriter(capacity: 128)
            writer.beginObject()
            writer.field("version", diff.to)
            writer.key("diff")
            diff.write(into: &writer)
            writer.endObject()
            return Self.json(200, writer.bytes, headers: [Self.etag(state.version)])
        }
    }

    /// `GET /v1/sessions/{id}/nodes/{node}/list?since=V`: the sections and the diff from `V`
    /// (default: from the previous version), or `reload: true` when `V` is too old.
    func getList(_ nodeText: String, on session: Session, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        var since: Int?
        if let text = request.queryValue("since") {
            guard let value = Int(text), value >= 0 else {
                throw .invalidRequest("query parameter 'since' must be a whole number of at least 0, not \(Excerpt(text))")
            }
            since = value
        }
        return try session.state.withLock { state throws(APIError) in
            let node = try Self.existingNode(nodeText, in: state.tree)
            guard let history = state.lists[node] else {
                throw .notFound("node '\(node)' has no list yet; PUT one first")
            }
            let answer: ListHistory.Answer
            do throws(ListError) {
                answer = try since.map { value throws(ListError) in try history.diff(since: value) } ?? .diff(history.latestDiff)
            } catch {
                throw .unprocessable(error.description)
            }
            var writer = JSONWriter(capacity: 256 + history.current.itemCount * 64)
            writer.beginObject()
            writer.field("version", history.version)
            writer.key("sections")
            history.current.write(into: &writer)
            writer.key("diff")
            switch answer {
            case .diff(let diff):
                diff.write(into: &writer)
            case .reload:
                writer.null()
                writer.field("reload", true)
            }
            writer.endObject()
            return Self.json(200, writer.bytes, headers: [Self.etag(state.version)])
        }
    }

    /// The node a path names, or `404`.
    static func existingNode(_ text: String, in tree: CoordinatorTree) throws(APIError) -> NodeID {
        guard let id = NodeID(text), tree.nodes[id] != nil else {
            throw .notFound("no node \(Excerpt(text)) in this session")
        }
        return id
    }
}
