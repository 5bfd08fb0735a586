/// What a request's `Accept` header prefers, read as RFC 9110 §12.5.1 has it: comma-separated
/// media ranges, each with an optional weight `q` (1 by default); a type's weight is that of
/// the most specific range that matches it (`type/subtype`, then `type/*`, then `*/*`), 0
/// when none does.
struct AcceptHeader: Sendable {
    private struct Range {
        let type: Substring
        let subtype: Substring
        let weight: Double
    }

    private let ranges: [Range]

    /// Reads a header's value; elements that are not media ranges, or whose `q` is not a number
    /// from 0 to 1, are left out.
    init(_ value: String) {
        ranges = value.split(separator: ",").compactMap { element in
            let parts = element.split(separator: ";")
            guard let range = parts.first else { return nil }
            let mediaRange = String(range).trimmingSpaces.lowercased()
            let halves = mediaRange.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else { return nil }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let value = Double(pair[1]), (0...1).contains(value) else { return nil }
                weight = value
            }
            return Range(type: Substring(String(halves[0])), subtype: Substring(String(halves[1])), weight: weight)
        }
    }

    /// The weight the header gives `type/subtype` (lower-case).
    func weight(of type: String, _ subtype: String) -> Double {
        if let exact = ranges.first(where: { $0.type == type && $0.subtype == subtype }) { return exact.weight }
        if let family = ranges.first(where: { $0.type == type && $0.subtype == "*" }) { return family.weight }
        return ranges.first(where: { $0.type == "*" && $0.subtype == "*" })?.weight ?? 0
    }

    /// Whether `text/event-stream` is preferred strictly over `application/json`: only then does
    /// `GET …/events` stream. A generated client that lists both alike gets JSON.
    static func prefersEventStream(_ value: String?) -> Bool {
        guard let value else { return false }
        let accept = AcceptHeader(value)
        return accept.weight(of: "text", "event-stream") > accept.weight(of: "application", "json")
    }
}
