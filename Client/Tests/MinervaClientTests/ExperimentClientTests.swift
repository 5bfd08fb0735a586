import Foundation
import MinervaClient
import Testing

/// Flow experiments through the Swift client, on the live tests' `coffee.json`: a session made
/// for a user says its variants, the app of its variants is read by version, and a change that
/// exposes it is predicted by the model on the device and confirmed by the server as predicted.
@Suite struct ExperimentClientTests {
    static let coffee = LiveServer.tabsApp.deletingLastPathComponent().appendingPathComponent("coffee.json")

    @Test func anExposureIsPredictedAndConfirmed() async throws {
        try await withLiveServer(["--app", Self.coffee.path]) { server in
            let session = try await MinervaSession.create(on: server.connection(), flags: ["onboarded"], user: "ada")
            let made = await session.state
            let memberships = try #require(made.experiments)
            #expect(Set(memberships.keys) == ["cart-pushed", "short-onboarding"] && memberships.values.allSatisfy { $0.exposedAt == nil })
            let app = try await server.connection().app(version: made.appVersion)
            #expect(app.assigned?.map(\.experiment) == ["cart-pushed", "short-onboarding"] && app.experiments == nil)

            let predicting = try await PredictingSession.start(session, device: "phone")
            var outcomes = predicting.outcomes.makeAsyncIterator()
            let shown = try await predicting.apply(.deepLink("/cart"))
            #expect(shown.experiments?["cart-pushed"]?.exposedAt != nil)
            let outcome = try #require(await outcomes.next())
            guard case .confirmed = outcome else {
                Issue.record("the exposure was not confirmed as predicted: \(outcome)")
                return
            }
            let server = try await session.refresh()
            #expect(server.experiments?["cart-pushed"]?.variant == memberships["cart-pushed"]?.variant)
            #expect(server.experiments?["cart-pushed"]?.exposedAt != nil && server.experiments?["short-onboarding"]?.exposedAt == nil)
        }
    }
}
