import Dispatch
import Logging
import MicroHTTP
import MinervaCoordinator
import MinervaJSON
@testable import MinervaServer
import MinervaSessions
import Testing

/// Many threads on many sessions and on one session at once, in process, so that the thread
/// sanitizer sees every lock of the API (`swift test --sanitize=thread` in the test command).
@Suite struct ConcurrencyTests {
    let client = InProcessClient(configuration: ServerConfiguration(sessions: SessionConfiguration(maxSessionBytes: 1 << 20, rateLimit: 0)))

    @Test func manySessionsInParallelLoseNothing() {
        let sessions = (0..<16).map { _ in client.createSession() }
        DispatchQueue.concurrentPerform(iterations: sessions.count * 20) { index in
            let (id, auth) = sessions[index % sessions.count]
            let answer = client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth])
            #expect(answer.status == 200)
            _ = client.send("GET", "/v1/sessions/\(id)", headers: [auth])
        }
        for (id, auth) in sessions {
            #expect(client.send("GET", "/v1/sessions/\(id)", headers: [auth]).json?.objectValue?["version"] == 21)
        }
    }

    @Test func oneSessionSerialisesItsRequests() {
        let (id, auth) = client.createSession()
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            let key = ("Idempotency-Key", "k\(index % 50)")
            _ = client.send("POST", "/v1/sessions/\(id)/push", #"{"screen": "profile", "params": {"userId": "1"}}"#, headers: [auth, key])
            _ = client.send("PUT", "/v1/sessions/\(id)/nodes/n1/list", #"{"sections": []}"#, headers: [auth])
        }
        // 50 distinct keys: 50 pushes; 100 list PUTs
        let final = client.send("GET", "/v1/sessions/\(id)", headers: [auth])
        #expect(final.status == 200)
        #expect(final.json?.objectValue?["version"] == 151)
    }

    @Test func creationAndExpiryRaceSafely() {
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            if index % 8 == 0 {
                client.api.core.expireIdleSessions()
            } else {
                _ = client.createSession()
            }
        }
        #expect(client.api.core.sessionCount == 56)
    }
}
