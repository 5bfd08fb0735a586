import Foundation
import MinervaClient
import Testing

/// Events an app makes itself (tests, previews) read and write as the server's: one JSON object
/// with its `type`, the fields every event carries and the change's members.
@Suite struct EventCodingTests {
    @Test func anEventWritesAndReadsAsTheServerWritesIt() throws {
        let added = NodeAdded(
            node: "n3", screen: "profile", params: ["userId": "42"], parent: "n1", navigator: "tab:home",
            presentation: Presentation(kind: .push), title: "Profile")
        let event = Event.added(Logged(fields: EventFields(seq: 1, version: 2, at: Date(timeIntervalSince1970: 0), isFinal: true, focus: "n3"), change: added))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        let json = try encoder.encode(event)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["type"] as? String == "added" && object["final"] as? Bool == true && object["focus"] as? String == "n3")
        #expect(object["node"] as? String == "n3" && object["seq"] as? Int == 1 && object["presentedBy"] == nil)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let read = try decoder.decode(Event.self, from: json)
        #expect(read == event)
        guard case .added(let readAdded) = read else {
            Issue.record("expected added: \(read)")
            return
        }
        #expect(readAdded.node == "n3" && readAdded.isFinal && readAdded.version == 2)
    }

    @Test func aNumberedChangeThatChangedNothingReadsAsTheServerWritesIt() throws {
        let json = #"{"seq": 7, "version": 5, "at": "2026-11-29T21:30:00Z", "type": "unchanged", "final": true, "focus": "n1", "device": "phone", "deviceSeq": 3}"#
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let event = try decoder.decode(Event.self, from: Data(json.utf8))
        guard case .unchanged(let unchanged) = event else {
            Issue.record("expected unchanged: \(event)")
            return
        }
        #expect(unchanged.device == "phone" && unchanged.deviceSeq == 3 && unchanged.version == 5 && unchanged.focus == "n1")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        #expect(try decoder.decode(Event.self, from: encoder.encode(event)) == event)
    }
}
