import Dispatch
import MicroHTTP
import MinervaJSON
import MinervaModel
import MinervaSessions

extension MinervaAPI {
    /// How long an admin report may wait for a shared store: it reads every kept path, which
    /// takes longer than a session's request may.
    static let reportDeadline = DispatchTimeInterval.seconds(30)

    /// `GET /v1/admin/analytics/{screens,funnel,flows}` with the admin token: the flow analytics
    /// of every session, from the store's rollups and paths (recorded changes are written first).
    func analytics(_ report: AnalyticsReport, _ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        try requireAdmin(request)
        let query = try AnalyticsQuery(request, report: report, screens: Set(core.app.screens.keys))
        // A writer far behind does not hold this store worker for long.
        core.analytics.flush(waitingAtMost: .seconds(2))
        do throws(StorageError) {
            let storage = core.analytics.storage
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("since", query.since.map { Timestamp.rfc3339(milliseconds: $0) })
            writer.field("until", query.until.map { Timestamp.rfc3339(milliseconds: $0) })
            switch report {
            case .screens:
                let counts = try storage.analyticsCounts(from: query.firstBucket, until: query.endBucket)
                Self.write(AnalyticsReports.screens(counts), into: &writer)
            case .flows:
                let counts = try storage.analyticsCounts(from: query.firstBucket, until: query.endBucket)
                Self.write(AnalyticsReports.flows(counts), into: &writer)
            case .funnel:
                let paths = try storage.analyticsPaths(updatedSince: query.since.map { Double($0) / 1000 })
                let funnel = AnalyticsFunnel(screens: query.steps, within: query.within, from: query.since, until: query.until, paths: paths)
                writer.key("within")
                if let within = query.within { writer.int(within / 1000) } else { writer.null() }
                Self.write(funnel, into: &writer)
            }
            writer.endObject()
            return Self.json(200, writer.bytes)
        } catch {
            logger.error("could not read analytics from the store: \(error)")
            throw .unavailable("the analytics store cannot be read right now; retry later")
        }
    }

    /// Refuses a request without the admin token (`401`).
    func requireAdmin(_ request: HTTPRequest) throws(APIError) {
        guard let given = request.header("authorization").flatMap(BearerToken.parse), let adminToken = configuration.adminToken,
            Token.matches(given, hash: Token.hash(adminToken))
        else { throw .adminUnauthorized }
    }

    private static func write(_ screens: [ScreenFigures], into writer: inout JSONWriter) {
        writer.key("screens")
        writer.beginArray()
        for figures in screens {
            writer.beginObject()
            writer.field("screen", figures.screen)
            writer.field("shown", figures.shown)
            writer.field("sessions", figures.sessions)
            writer.key("exits")
            writer.beginObject()
            for (reason, count) in figures.exits.sorted(by: { $0.key < $1.key }) {
                writer.key(string: reason)
                writer.int(count)
            }
            writer.endObject()
            writer.key("timeOnScreen")
            write(figures.timeOnScreen, into: &writer)
            writer.endObject()
        }
        writer.endArray()
    }

    private static func write(_ flows: [FlowFigures], into writer: inout JSONWriter) {
        writer.key("flows")
        writer.beginArray()
        for figures in flows {
            writer.beginObject()
            writer.field("screen", figures.screen)
            writer.field("success", figures.success)
            writer.field("cancelled", figures.cancelled)
            writer.key("cancelledBy")
            writer.beginObject()
            for cause in figures.cancelledBy.keys.sorted() {
                writer.key(string: cause)
                writer.int(figures.cancelledBy[cause]!)
            }
            writer.endObject()
            writer.key("timeToFinish")
            write(figures.timeToFinish, into: &writer)
            writer.endObject()
        }
        writer.endArray()
    }

    private static func write(_ funnel: AnalyticsFunnel, into writer: inout JSONWriter) {
        writer.key("steps")
        writer.beginArray()
        for (index, step) in funnel.steps.enumerated() {
            writer.beginObject()
            writer.field("screen", step.screen)
            writer.field("sessions", step.sessions)
            if index < funnel.steps.count - 1 {
                writer.field("stopped", step.stopped)
                writer.key("exits")
                writer.beginArray()
                for (exit, count) in step.exits.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                    writer.beginObject()
                    writer.field("screen", exit.screen)
                    writer.field("reason", exit.reason)
                    writer.field("sessions", count)
                    writer.endObject()
                }
                writer.endArray()
            }
            writer.endObject()
        }
        writer.endArray()
    }

    private static func write(_ durations: DurationFigures, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("samples", durations.samples)
        writer.key("median")
        seconds(durations.median, into: &writer)
        writer.key("p90")
        seconds(durations.p90, into: &writer)
        writer.endObject()
    }

    /// Seconds to the millisecond, or `null`.
    private static func seconds(_ value: Double?, into writer: inout JSONWriter) {
        guard let value else { return writer.null() }
        writer.value(.double((value * 1000).rounded() / 1000))
    }
}

extension APIError {
    /// `401` to an admin path without the admin token.
    static let adminUnauthorized = APIError(
        status: 401, code: "unauthorized",
        message: "missing or invalid admin token; send 'Authorization: Bearer <token>' with the server's --admin-token (session tokens are not accepted)",
        headers: [Header(name: "WWW-Authenticate", value: "Bearer")])
}
