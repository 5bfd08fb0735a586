import MicroHTTP
import MinervaCoordinator
import MinervaJSON
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// `GET /v1/admin/experiments/{experiment}` with the admin token: the experiment's results,
    /// counted from the units and facts the store committed.
    func experimentResults(_ key: String, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        try requireAdmin(request)
        if let name = request.query.first?.name {
            throw .invalidRequest("unknown query parameter \(Excerpt(name)); experiment results take none")
        }
        let results = try throughCore { () throws(SessionError) in try core.experimentResults(key) }
        guard let results else {
            let keys = core.app.experiments.map(\.key)
            throw .notFound(
                "the app declares no experiment \(Excerpt(key))"
                    + (keys.isEmpty ? "; it declares none" : "; it declares \(keys.map { "'\($0)'" }.joined(separator: ", "))"))
        }
        return Self.json(200, ExperimentResultsDocument.encode(results))
    }

    /// `DELETE /v1/admin/experiment-units?unit=…` with the admin token: forgets a unit's
    /// assignments (a user's, or a session's) in every experiment.
    func deleteExperimentUnits(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        try requireAdmin(request)
        if let other = request.query.first(where: { $0.name != "unit" }) {
            throw .invalidRequest("unknown query parameter \(Excerpt(other.name)); this takes 'unit' alone")
        }
        guard request.query.count == 1, let unit = request.queryValue("unit"), (1...256).contains(unit.utf8.count) else {
            throw .invalidRequest("give the unit once, 1 to 256 bytes: ?unit=<the user id a session was made for, or a session id>")
        }
        let deleted = try throughCore { () throws(SessionError) in try core.deleteExperimentUnits(of: unit) }
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("unit", unit)
        writer.field("deleted", deleted)
        writer.endObject()
        return Self.json(200, writer.bytes)
    }
}
