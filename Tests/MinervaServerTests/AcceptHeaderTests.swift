@testable import MinervaServer
import Testing

/// `Accept` as RFC 9110 weighs it: `GET …/events` streams only when `text/event-stream` is
/// preferred strictly over JSON.
@Suite struct AcceptHeaderTests {
    @Test(arguments: [
        ("text/event-stream", true),
        ("TEXT/Event-Stream", true),
        ("text/event-stream;q=0.5", true),
        ("text/event-stream, application/json;q=0.9", true),
        ("text/*, application/json;q=0.1", true),
        ("application/json, text/event-stream", false),
        ("application/json;q=0.5, text/event-stream;q=0.5", false),
        ("application/json, text/event-stream;q=0.9", false),
        ("*/*", false),
        ("text/event-stream;q=0", false),
        ("text/event-stream;q=2", false),
        ("text/event-stream;q=abc", false),
        ("", false),
        ("nonsense", false),
    ])
    func streamsOnlyWhenTheEventStreamIsPreferred(accept: String, streams: Bool) {
        #expect(AcceptHeader.prefersEventStream(accept) == streams)
    }

    @Test func noHeaderIsJSON() {
        #expect(!AcceptHeader.prefersEventStream(nil))
    }

    @Test func theMostSpecificRangeGivesTheWeight() {
        let accept = AcceptHeader("*/*;q=0.1, text/*;q=0.5, text/event-stream;q=0.8")
        #expect(accept.weight(of: "text", "event-stream") == 0.8)
        #expect(accept.weight(of: "text", "plain") == 0.5)
        #expect(accept.weight(of: "application", "json") == 0.1)
    }
}
