import Foundation
import MinervaCoordinator
import MinervaModel
@testable import MinervaSessions
import MinervaSQLite
import TestSupport
import Testing

/// What the core writes for experiments to count, through a real store: a row per assignment
/// when a session is made, and the first of each fact its committed changes make once exposed.
@Suite struct ExperimentCountingTests {
    static let coffee = ExperimentSessionTests.coffee

    @Test func aUsersSessionsAreOneUnitCountedFromWhatTheirChangesCommitted() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-counting-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteSessionStorage(path: path)
        let harness = try CoreHarness(app: Self.coffee, storage: store)
        let variant = ExperimentSessionTests.expected("short-onboarding", unit: "ada", ["control", "short"])
        // Made on the onboarding (where the variants differ): exposed at once.
        let (session, _) = try harness.create(user: "ada")
        var rows = try store.experimentUnits(of: "short-onboarding", seed: "short-onboarding")
        #expect(rows.map(\.record.unit) == ["ada"] && rows.map(\.record.variant) == [variant])
        #expect(rows.first?.facts.keys.map(\.rawValue) == ["exposed"])
        // Finishing the onboarding completes it and shows the main flow's tabs; an order follows.
        _ = try harness.run(.finish(node: "n1", status: "success", value: nil), on: session).get()
        _ = try harness.run(.push(from: nil, screen: "drink", params: ["drinkId": "7"]), on: session).get()
        _ = try harness.run(.deepLink(url: "/cart"), on: session).get()
        _ = try harness.run(.present(from: nil, screen: "done", params: [:], style: nil, embedInNavigation: nil), on: session).get()
        rows = try store.experimentUnits(of: "short-onboarding", seed: "short-onboarding")
        // The orders tab's root is in the tree, but nobody looked at it: not reached.
        #expect(Set(rows[0].facts.keys.map(\.rawValue)) == ["exposed", "completed:onboarding", "reached:menu", "reached:drink", "reached:cart", "reached:done"])
        // The other experiment exposed it on the cart, the focus then.
        let cart = try store.experimentUnits(of: "cart-pushed", seed: "cart-pushed")
        #expect(cart.map(\.record.unit) == [session.id] && Set(cart[0].facts.keys.map(\.rawValue)) == ["exposed", "reached:cart", "reached:done"])

        // The same person on another device, signed in: one unit, not exposed again, not counted
        // twice; what they do there counts, as the person was exposed before.
        let (second, _) = try harness.create(flags: ["onboarded"], user: "ada")
        _ = try harness.run(.selectTab("orders"), on: second).get()
        #expect(try store.experimentUnits(of: "short-onboarding", seed: "short-onboarding").count == 2)
        let results = try #require(try harness.core.experimentResults("short-onboarding"))
        let counted = try #require(results.variants.first { $0.name == variant })
        #expect(counted.assigned == 1 && counted.exposed == 1 && results.mixedUnits == 0)
        #expect(results.variants.map(\.assigned).reduce(0, +) == 1)
        for metric in results.metrics {
            let figures = try #require(metric.variants.first { $0.name == variant })
            // Its orders were opened on the other device.
            #expect(figures.units == 1 && figures.conversions == 1, "\(metric.name)")
        }
        #expect(try harness.core.experimentResults("no-such-experiment") == nil)

        // A session in no experiment writes no row.
        let plain = try CoreHarness(app: .tabs, storage: store)
        let (other, _) = try plain.create()
        _ = try plain.run(.push(from: nil, screen: "settings", params: [:]), on: other).get()
        #expect(try store.experimentUnits(of: "short-onboarding", seed: "short-onboarding").count == 2)

        // Forgetting the person's assignments leaves nothing of them to count.
        #expect(try harness.core.deleteExperimentUnits(of: "ada") == 2)
        #expect(try #require(try harness.core.experimentResults("short-onboarding")).variants.allSatisfy { $0.assigned == 0 })
    }

    @Test func aForcedVariantRunsThatVariantAndCountsNoOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("minerva-forced-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteSessionStorage(path: path)
        let harness = try CoreHarness(app: Self.coffee, storage: store)
        // Whatever the hash gives each user, QA gets the variant it asks for, and the app of it.
        for (user, variant) in [("ada", "short"), ("ada", "control"), ("grace", "short"), ("grace", "control")] {
            let (session, _) = try harness.create(user: user, variants: ["short-onboarding": variant])
            let state = try harness.state(of: session)
            #expect(state.experiments["short-onboarding"]?.variant == variant && state.experiments["short-onboarding"]?.exposedAt != nil)
            #expect((state.tree.app.screens["notifications"] == nil) == (variant == "short"))
            // The other experiment is drawn as usual, and counted.
            #expect(state.experiments["cart-pushed"] != nil)
        }
        #expect(try store.experimentUnits(of: "short-onboarding", seed: "short-onboarding").isEmpty)
        #expect(try store.experimentUnits(of: "cart-pushed", seed: "cart-pushed").count == 4)
        // What the app does not have is refused, naming what it has.
        for (variants, message) in [
            (["short-onboardng": "short"], "which the app does not declare; it declares 'cart-pushed', 'short-onboarding'"),
            (["short-onboarding": "shorter"], "has no variant 'shorter'; it has 'control', 'short'"),
        ] {
            let error = #expect(throws: SessionError.self, "\(variants)") { try harness.create(user: "ada", variants: variants) }
            #expect(error?.category == .invalid && error?.description.contains(message) == true, "\(String(describing: error))")
        }
        // Two experiments whose namespace shares exclude each other were never checked together.
        let apart = try ExperimentSessionTests.coffee("cart-pushed", #"{"namespace": {"name": "checkout", "range": [0, 0.5]}}"#)
        let both = try ExperimentSessionTests.coffee(
            "short-onboarding", #"{"namespace": {"name": "checkout", "range": [0.5, 1]}}"#, in: apart)
        let separate = try CoreHarness(app: both)
        let error = #expect(throws: SessionError.self) {
            try separate.create(user: "ada", variants: ["cart-pushed": "pushed", "short-onboarding": "short"])
        }
        #expect(error?.description.contains("exclude each other") == true)
    }
}
