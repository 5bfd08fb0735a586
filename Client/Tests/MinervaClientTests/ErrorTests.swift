import Foundation
import MinervaClient
import Testing

/// Error answers of the real server as typed `MinervaError`s.
@Suite struct ErrorTests {
    @Test func aWrongTokenIsUnauthorized() async throws {
        try await withLiveServer { server in
            let session = try await MinervaSession.create(on: server.connection())
            let error = try await #require(throws: MinervaError.self) {
                try await MinervaSession.resume(on: server.connection(), id: session.id, token: String(repeating: "A", count: 43))
            }
            #expect(error.status == 401 && error.code == .unauthorized)
            #expect(error.message.contains("bearer token"))
            #expect(error.requestID?.isEmpty == false)
        }
    }

    @Test func anUnknownNodeIsNotFound() async throws {
        try await withTabsSession { session in
            let error = try await #require(throws: MinervaError.self) { try await session.push("profile", params: ["userId": "1"], from: "n99") }
            #expect(error.status == 404 && error.code == .notFound && error.message.contains("n99"))
        }
    }

    @Test func poppingARootIsAConflict() async throws {
        try await withTabsSession { session in
            let error = try await #require(throws: MinervaError.self) { try await session.pop() }
            #expect(error.status == 409 && error.code == .conflict)
            #expect(await session.version == 1)
        }
    }

    @Test func missingParamsAreUnprocessable() async throws {
        try await withTabsSession { session in
            let error = try await #require(throws: MinervaError.self) { try await session.navigate(to: "profile") }
            #expect(error.status == 422 && error.code == .unprocessable && error.message.contains("userId"))
        }
    }

    @Test func aTapOnAStaleStateFailsWithPreconditionFailedAndChangesNothing() async throws {
        try await withLiveServer { server in
            let phone = try await MinervaSession.create(on: server.connection())
            let tablet = try await MinervaSession.resume(on: server.connection(), id: phone.id, token: phone.token)
            try await phone.navigate(to: "profile", params: ["userId": "1"])
            let error = try await #require(throws: MinervaError.self) { try await tablet.navigate(to: "photo", params: ["photoId": "2"]) }
            #expect(error.status == 412 && error.code == .preconditionFailed)
            #expect(try await phone.refresh().version == 2)
            // Once it has seen the new state, the same tap goes through.
            try await tablet.refresh()
            #expect(try await tablet.navigate(to: "photo", params: ["photoId": "2"]).version == 3)
        }
    }

    @Test func aRateLimitedRequestCarriesRetryAfterAndIsRetriedAfterIt() async throws {
        try await withLiveServer(["--rate-limit", "1", "--rate-burst", "1"]) { server in
            let created = try await MinervaSession.create(on: server.connection())
            let impatient = MinervaConnection(serverURL: server.url, retryPolicy: .never)
            let session = try await MinervaSession.resume(on: impatient, id: created.id, token: created.token)
            let error = try await #require(throws: MinervaError.self) { try await session.refresh() }
            #expect(error.status == 429 && error.code == .rateLimited && error.retryAfter == .seconds(1))
            let patient = try await MinervaSession.resume(on: server.connection(), id: created.id, token: created.token)
            #expect(try await patient.refresh().version == 1)
        }
    }

    private static let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("openapi.yaml")

    @Test func everyCodeOfTheContractHasItsName() throws {
        let named: [MinervaError.Code] = [
            .invalidRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .conflict, .appChanged, .preconditionFailed,
            .payloadTooLarge, .uriTooLong, .unprocessable, .rateLimited, .headersTooLarge, .unavailable, .notVisible, .covered,
            .notDismissible, .removed, .deviceSeqGap, .linksHeld, .overlaid,
        ]
        // The codes `openapi.yaml` lists for `ErrorDetail.code` (its `x-extensible-enum`).
        let contract = try String(contentsOf: Self.contract, encoding: .utf8)
        let detail = try #require(contract.range(of: "\n    ErrorDetail:\n")).upperBound
        let list = try #require(contract[detail...].firstMatch(of: /x-extensible-enum: \[([a-z_, ]+)\]/)).output.1
        let codes = list.split(separator: ", ").map { MinervaError.Code(rawValue: String($0)) }
        #expect(Set(named) == Set(codes))
    }
}
