import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MinervaClient

/// A session's whole change log as the server keeps it (`GET …/events`).
enum SessionLog {
    /// One event's numbering: its device and number, on a block's final event.
    struct Numbered: Decodable {
        let device: String?
        let deviceSeq: Int?
    }

    private struct Page: Decodable {
        let events: [Numbered]
        let truncated: Bool?
    }

    /// A log page that holds events from the session's first (nothing dropped).
    struct Truncated: Error {}

    /// The device numbers of every block in the log, in order, for one device.
    /// - Throws: ``Truncated`` when the server no longer keeps the whole log.
    static func numbers(of device: String, in session: MinervaSession, on server: URL) async throws -> [Int] {
        var request = URLRequest(url: server.appendingPathComponent("v1/sessions/\(session.id)/events"))
        request.setValue("Bearer \(session.token)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let page = try JSONDecoder().decode(Page.self, from: data)
        guard page.truncated != true else { throw Truncated() }
        return page.events.filter { $0.device == device }.compactMap(\.deviceSeq)
    }

    /// The events after `after`, as the client reads them.
    static func events(after: Int, in session: MinervaSession, on server: URL) async throws -> [Event] {
        var components = URLComponents(url: server.appendingPathComponent("v1/sessions/\(session.id)/events"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "after", value: String(after))]
        var request = URLRequest(url: components.url!)
        request.setValue("Bearer \(session.token)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
        }
        return try decoder.decode(EventPage.self, from: data).events
    }

    private struct EventPage: Decodable {
        let events: [Event]
    }
}
