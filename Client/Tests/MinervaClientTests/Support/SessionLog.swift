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
}
