import Foundation
import MinervaCoordinator
import MinervaExperiments
import MinervaJSON
import MinervaModel
@testable import MinervaSessions
import MinervaSQLite
import TestSupport
import Testing

/// Sessions in experiments: the variant a session runs is drawn once from GrowthBook's hash of
/// its unit, kept in the session across reloads and restarts, moved only by a declared winner;
/// the change that first shows a screen where the variants differ exposes it.
@Suite struct ExperimentSessionTests {
    static let coffee = AppDescription.testApp(named: "coffee.json")

    /// The coffee app (or `app`) with one experiment changed by a merge patch of its declaration.
    static func coffee(_ key: String, _ patch: String, in app: AppDescription = coffee) throws -> AppDescription {
        let change = try JSONParser.parse(Array(patch.utf8))
        let document = try JSONParser.parse(app.document(version: nil)).merging(patch: .object(["experiments": .object([key: change])]))
        var writer = JSONWriter()
        writer.value(document)
        return try AppDescription.parse(writer.bytes, source: "coffee")
    }

    /// The variant GrowthBook's hash gives a unit at 50/50: computed here apart from the core.
    static func expected(_ experiment: String, unit: String, _ variants: [String]) -> String {
        ExperimentHash.position(seed: experiment, unit: unit) < 0.5 ? variants[0] : variants[1]
    }

    @Test func aUserGetsTheVariantTheHashGivesOnEveryDeviceAndASessionItsOwn() throws {
        let harness = try CoreHarness(app: Self.coffee)
        for user in ["ada", "grace", "linus", "margaret", "ken", "barbara"] {
            let (first, _) = try harness.create(user: user)
            let (second, _) = try harness.create(flags: ["onboarded"], user: user)
            let variant = Self.expected("short-onboarding", unit: user, ["control", "short"])
            for session in [first, second] {
                let state = try harness.state(of: session)
                #expect(state.experiments["short-onboarding"]?.variant == variant)
                #expect(state.experiments["cart-pushed"]?.variant == Self.expected("cart-pushed", unit: session.id, ["control", "pushed"]))
                // It runs its variants' app, kept by version.
                let app = try #require(try harness.core.app(ofVersion: state.appVersion))
                #expect(app == state.tree.app && (app.screens["notifications"] == nil) == (variant == "short"))
                #expect(app.assigned.map(\.experiment) == ["cart-pushed", "short-onboarding"])
            }
        }
        // A session without a user is in no experiment by user.
        let (anonymous, _) = try harness.create()
        #expect(try harness.state(of: anonymous).experiments.keys.sorted() == ["cart-pushed"])
    }

    @Test func theChangeThatFirstShowsAScreenWhereVariantsDifferExposesTheSessionOnce() throws {
        let harness = try CoreHarness(app: Self.coffee)
        let (session, _) = try harness.create(flags: ["onboarded"], user: "ada")
        var state = try harness.state(of: session)
        // The main flow's screens are the same in every variant: not exposed yet.
        #expect(state.experiments.values.allSatisfy { $0.exposedAt == nil })
        _ = try harness.run(.push(from: nil, screen: "drink", params: ["drinkId": "7"]), on: session).get()
        let shown = try harness.run(.deepLink(url: "/cart"), on: session).get()
        #expect(shown.events.map(\.type).suffix(1) == ["exposed"])
        #expect(shown.events.last?.change == .exposed(experiment: "cart-pushed", variant: try harness.state(of: session).experiments["cart-pushed"]!.variant))
        state = try harness.state(of: session)
        #expect(state.experiments["cart-pushed"]?.exposedAt != nil && state.experiments["short-onboarding"]?.exposedAt == nil)
        // Shown again: no second exposure.
        let pushed = state.experiments["cart-pushed"]?.variant == "pushed"
        _ = try harness.run(pushed ? .pop(navigator: nil, to: nil, toRoot: false) : .dismiss(node: nil), on: session).get()
        #expect(try harness.run(.deepLink(url: "/cart"), on: session).get().events.allSatisfy { $0.kind != .exposed })
        // Signing out shows the onboarding, where the other experiment differs.
        let signedOut = try harness.run(.flags(set: [], clear: ["onboarded"]), on: session).get()
        #expect(signedOut.events.last?.change == .exposed(experiment: "short-onboarding", variant: Self.expected("short-onboarding", unit: "ada", ["control", "short"])))
    }

    @Test func aSessionStartingOnADifferingScreenIsExposedWhenItIsMade() throws {
        let harness = try CoreHarness(app: Self.coffee)
        let (session, _) = try harness.create(user: "ada")
        let state = try harness.state(of: session)
        #expect(state.experiments["short-onboarding"]?.exposedAt != nil && state.experiments["cart-pushed"]?.exposedAt == nil)
        #expect(harness.log(of: session).events.isEmpty)
    }

    @Test func theVariantAndExposureAreKeptAcrossARestartAndAnAllocationChangeMovesNoSession() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-experiments-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var harness: CoreHarness? = try CoreHarness(app: Self.coffee, storage: try SQLiteSessionStorage(path: path))
        let (session, token) = try harness!.create(flags: ["onboarded"], user: "grace")
        _ = try harness!.run(.deepLink(url: "/cart"), on: session).get()
        let before = try harness!.state(of: session)
        harness = nil

        // Another process, whose file gives the experiment other weights and less coverage.
        let reweighted = try Self.coffee(
            "cart-pushed", #"{"coverage": 0.5, "variants": [{"name": "control", "weight": 0.9}, {"name": "pushed", "weight": 0.1, "patch": {"screens": {"cart": {"presentation": "push", "style": null}}}}]}"#)
        let restarted = try CoreHarness(app: reweighted, storage: try SQLiteSessionStorage(path: path))
        let read = try restarted.core.session(session.id, token: token)
        let after = try restarted.state(of: read)
        #expect(after.experiments == before.experiments && after.appVersion == before.appVersion && after.version == before.version)
        _ = try restarted.run(.flags(set: ["beta"], clear: []), on: read).get()
        #expect(try restarted.state(of: read).appVersion == before.appVersion)
    }

    @Test func aDeclaredWinnerMovesEverySessionToItsVariantOnItsNextUse() throws {
        let harness = try CoreHarness(app: Self.coffee)
        var sessions: [(LiveSession, String)] = []
        for index in 0..<8 { sessions.append(try harness.create(flags: ["onboarded"], user: "u\(index)")) }
        let won = try Self.coffee("cart-pushed", #"{"winner": "pushed"}"#)
        try harness.core.replaceApp(won, version: "won")
        for (session, token) in sessions {
            let membership = try harness.state(of: session).experiments["cart-pushed"]
            let used = try harness.core.session(session.id, token: token)
            let state = try harness.state(of: used)
            #expect(state.tree.app.screens["cart"]?.presentation == .push)
            // Its assignment is kept; the experiment counts it no longer.
            #expect(state.experiments["cart-pushed"] == membership && !state.tree.app.assigned.contains { $0.experiment == "cart-pushed" })
        }
        // New sessions run the winner, outside the experiment.
        let (fresh, _) = try harness.create(flags: ["onboarded"])
        let state = try harness.state(of: fresh)
        #expect(state.tree.app.screens["cart"]?.presentation == .push && state.experiments["cart-pushed"] == nil)
    }

    @Test func aBucketVersionDrawsNewSessionsWithAnotherSeedAndTimesBoundAssignment() throws {
        let redrawn = try Self.coffee("short-onboarding", #"{"bucketVersion": 2}"#)
        #expect(redrawn.experiment("short-onboarding")?.seed == "short-onboarding/2")
        let harness = try CoreHarness(app: redrawn)
        let users = (0..<40).map { "user-\($0)" }
        var moved = 0
        for user in users {
            let (session, _) = try harness.create(user: user)
            let variant = try harness.state(of: session).experiments["short-onboarding"]?.variant
            #expect(variant == Self.expected("short-onboarding/2", unit: user, ["control", "short"]))
            if variant != Self.expected("short-onboarding", unit: user, ["control", "short"]) { moved += 1 }
        }
        #expect(moved > 5)
        // An experiment that has not started, or has stopped, assigns no one.
        for times in [#"{"start": "2999-01-01T00:00:00Z"}"#, #"{"start": "2000-01-01T00:00:00Z", "stop": "2001-01-01T00:00:00Z"}"#] {
            let timed = try CoreHarness(app: try Self.coffee("short-onboarding", times))
            let (session, _) = try timed.create(user: "ada")
            let state = try timed.state(of: session)
            #expect(state.experiments["short-onboarding"] == nil && state.tree.app.screens["notifications"] != nil)
        }
    }
}
