import MicroHTTP
import MinervaJSON
import MinervaModel
import MinervaSessions

/// The reports under `/v1/admin/analytics/`.
enum AnalyticsReport {
    case screens, funnel, flows
}

/// The query of an analytics report, checked strictly: `since` and `until` (RFC 3339) for
/// every report, `steps` and `within` for the funnel; anything else is refused by name.
struct AnalyticsQuery {
    /// The period, in milliseconds since 1970.
    let since: Int?
    let until: Int?
    /// The funnel's screens, in order.
    let steps: [String]
    /// The funnel's window from its first step, in milliseconds.
    let within: Int?

    /// The most steps a funnel has.
    static let maximumSteps = 16

    /// Reads and checks the query.
    /// - Throws: `400` naming the parameter that is unknown, repeated or not valid.
    init(_ request: HTTPRequest, report: AnalyticsReport, screens: Set<String>) throws(APIError) {
        let allowed = report == .funnel ? ["since", "until", "steps", "within"] : ["since", "until"]
        let unknown = request.query.map(\.name).filter { !allowed.contains($0) }
        guard unknown.isEmpty else {
            throw .invalidRequest(
                "unknown query parameter\(unknown.count > 1 ? "s" : "") \(unknown.map { "\(Excerpt($0))" }.joined(separator: ", ")); this report takes \(allowed.joined(separator: ", "))"
            )
        }
        for name in allowed where request.query.filter({ $0.name == name }).count > 1 {
            throw .invalidRequest("query parameter '\(name)' is given more than once")
        }
        since = try Self.moment(request.queryValue("since"), "since")
        until = try Self.moment(request.queryValue("until"), "until")
        guard report == .funnel else {
            steps = []
            within = nil
            return
        }
        guard let text = request.queryValue("steps"), !text.isEmpty else {
            throw .invalidRequest("query parameter 'steps' is required: the funnel's screens in order, separated by commas (steps=home,profile,followers)")
        }
        let steps = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard steps.count <= Self.maximumSteps else {
            throw .invalidRequest("query parameter 'steps' names \(steps.count) screens; a funnel has at most \(Self.maximumSteps)")
        }
        if let unknownScreen = steps.first(where: { !screens.contains($0) }) {
            throw .invalidRequest(
                "query parameter 'steps' names \(Excerpt(unknownScreen)), which is not a screen of the app; its screens are \(screens.sorted().joined(separator: ", "))")
        }
        self.steps = steps
        within = try request.queryValue("within").map { text throws(APIError) in try Self.duration(text) }
    }

    /// The first hour bucket of the period (rollups are kept by the hour: `since` rounds down).
    var firstBucket: Int? { since.map { AnalyticsCount.bucket(ofMilliseconds: $0) } }

    /// The bucket after the period (`until` rounds up to the hour).
    var endBucket: Int? { until.map { AnalyticsCount.bucket(ofMilliseconds: $0 + 3_599_999) } }

    private static func moment(_ text: String?, _ name: String) throws(APIError) -> Int? {
        guard let text else { return nil }
        guard let milliseconds = Timestamp.milliseconds(rfc3339: text) else {
            throw .invalidRequest("query parameter '\(name)' must be an RFC 3339 timestamp such as 2026-11-24T09:00:00Z, not \(Excerpt(text))")
        }
        return milliseconds
    }

    /// `30m`, `2h`, `45s`, `1d`: a whole number of 1 to 8 digits and a unit, in milliseconds.
    private static func duration(_ text: String) throws(APIError) -> Int {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        let digits = text.dropLast()
        // As openapi.yaml's pattern: no sign, no leading zero.
        guard let unit = text.last.flatMap({ units[$0] }), (1...8).contains(digits.count), digits.first != "0",
            digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits)
        else {
            throw .invalidRequest("query parameter 'within' must be a whole number of s, m, h or d above 0 (within=30m), not \(Excerpt(text))")
        }
        return number * unit * 1000
    }
}
