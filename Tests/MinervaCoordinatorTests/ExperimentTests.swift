import MinervaCoordinator
import MinervaJSON
import Testing

/// Experiments in the app description: each variant's app is checked when the file is read
/// (naming the experiment and variant at fault), the apps sessions run are the variants' patches
/// applied, and the screens where variants differ are what exposes a session.
@Suite struct ExperimentTests {
    /// A two-flow app with an onboarding experiment by user and a cart experiment by session.
    static let coffee = """
        {
          "name": "Coffee",
          "flows": {
            "onboarding": {"root": {"screen": "welcome"}, "completes": "onboarded"},
            "main": {"root": {"tabs": [{"id": "menu", "screen": "menu"}, {"id": "orders", "screen": "orders"}]}}
          },
          "launch": [{"unless": "onboarded", "flow": "onboarding"}, {"flow": "main"}],
          "screens": {
            "welcome": {"title": "Welcome"}, "notifications": {"title": "Notifications"},
            "menu": {"title": "Menu"}, "orders": {"title": "Orders"}, "cart": {"presentation": "present"}, "done": {}
          },
          "routes": [{"path": "/cart", "flow": "main", "steps": [{"screen": "cart"}]}],
          "experiments": {
            "short-onboarding": {
              "unit": "user",
              "variants": [
                {"name": "control", "weight": 0.5},
                {"name": "short", "weight": 0.5, "patch": {"screens": {"welcome": {"title": "Welcome, in one step"}}}}
              ],
              "metrics": [{"name": "onboarded", "completes": "onboarding"}, {"name": "ordered", "funnel": ["menu", "cart", "done"]}]
            },
            "cart-sheet": {
              "variants": [{"name": "control"}, {"name": "sheet", "patch": {"screens": {"cart": {"style": "pageSheet"}}}}]
            }
          }
        }
        """

    /// The coffee app with `experiments` replaced.
    static func coffee(experiments: String) -> String {
        let start = coffee.range(of: "\"experiments\": {")!.lowerBound
        return coffee[..<start] + "\"experiments\": " + experiments + "\n}"
    }

    static func parse(_ text: String) throws(AppDescriptionError) -> AppDescription {
        try AppDescription.parse(Array(text.utf8), source: "coffee.json")
    }

    @Test func experimentsAreReadWithTheirDefaultsAndTheScreensWhereVariantsDiffer() throws {
        let app = try Self.parse(Self.coffee)
        #expect(app.experiments.map(\.key) == ["cart-sheet", "short-onboarding"])
        let cart = try #require(app.experiment("cart-sheet"))
        #expect(cart.unit == .session && cart.coverage == 1 && cart.variants.map(\.weight) == [0.5, 0.5] && cart.bucketVersion == 0)
        #expect(cart.differs == ["cart"] && cart.seed == "cart-sheet")
        let onboarding = try #require(app.experiment("short-onboarding"))
        #expect(onboarding.unit == .user && onboarding.differs == ["welcome"])
        #expect(onboarding.metrics.map(\.goal) == [.completes("onboarding"), .funnel(["menu", "cart", "done"])])
    }

    @Test func theDocumentReadsBackEqualAndItsExperimentsAreOutsideTheAppOfNoExperiment() throws {
        let app = try Self.parse(Self.coffee)
        let read = try AppDescription.parse(app.document(version: "v"), source: "served", served: true)
        #expect(read == app)
        #expect(app.outsideExperiments.experiments.isEmpty && app.outsideExperiments.document(version: nil) != app.document(version: nil))
    }

    @Test func aVariantsAppIsThePatchAppliedWithWhatItRunsAssigned() throws {
        let app = try Self.parse(Self.coffee)
        let sheet = try app.effective(choosing: [AppDescription.Choice(experiment: "cart-sheet", variant: "sheet")])
        #expect(sheet.experiments.isEmpty && sheet.screens["cart"]?.style == .pageSheet && sheet.screens["welcome"] == app.screens["welcome"])
        #expect(sheet.assigned == [AppDescription.Assignment(experiment: "cart-sheet", variant: "sheet", differs: ["cart"])])
        // Control runs the app as written, assigned too (it is exposed where the others differ).
        let control = try app.effective(choosing: [AppDescription.Choice(experiment: "cart-sheet", variant: "control")])
        #expect(control.screens == app.screens && control.assigned.map(\.variant) == ["control"])
        // A winner everyone runs is not counted.
        let winner = try app.effective(choosing: [AppDescription.Choice(experiment: "cart-sheet", variant: "sheet", counted: false)])
        #expect(winner.assigned.isEmpty && winner.screens["cart"]?.style == .pageSheet)
        // Its document, as the store keeps it, reads back with what it runs.
        #expect(try AppDescription.parse(sheet.document(version: nil), source: "store", served: true) == sheet)
        #expect(throws: AppDescriptionError.self) { try AppDescription.parse(sheet.document(version: nil), source: "file") }
    }

    @Test func combinationsAreEveryChoiceOfEachExperimentAndNamespacesKeepSharesApart() throws {
        let app = try Self.parse(Self.coffee)
        #expect(AppDescription.combinations(of: app.experiments).count == 9)
        let apart = try Self.parse(
            Self.coffee(
                experiments: """
                    {"a": {"variants": [{"name": "control"}, {"name": "b"}], "namespace": {"name": "ns", "range": [0, 0.5]}},
                     "b": {"variants": [{"name": "control"}, {"name": "b"}], "namespace": {"name": "ns", "range": [0.5, 1]}}}
                    """))
        // None, a's two, b's two: never one of each.
        #expect(AppDescription.combinations(of: apart.experiments).count == 5)
    }

    @Test func anA_ATestDiffersNowhere() throws {
        let app = try Self.parse(Self.coffee(experiments: #"{"aa": {"variants": [{"name": "control"}, {"name": "same"}]}}"#))
        #expect(app.experiment("aa")?.differs == [])
    }

    @Test func flowsLaunchRulesAndRoutesThatDifferExposeTheirScreens() throws {
        let app = try Self.parse(Self.coffee)
        var other = app.outsideExperiments
        other.flows["main"]?.root = .screen("menu")
        #expect(app.outsideExperiments.screensDiffering(from: other) == ["menu", "orders"])
        other = app.outsideExperiments
        other.launch = [AppDescription.LaunchRule(flow: "main")]
        #expect(app.outsideExperiments.screensDiffering(from: other) == ["welcome", "menu", "orders"])
        other = app.outsideExperiments
        other.routes[0].steps[0].presentation = .push
        #expect(app.outsideExperiments.screensDiffering(from: other) == ["cart"])
    }

    /// Every refusal names the member at fault; a variant's app names the experiment and variant.
    @Test(arguments: [
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b", "patch": {"screens": {"cart": {"style": "sideways"}}}}]}}"#,
         "experiments.x.variants[1].patch", "variant 'b' makes an app that cannot be served: field 'screens.cart.style': 'sideways' is not one of"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b", "patch": {"flows": {"main": null}}}]}}"#,
         "experiments.x.variants[1].patch", "variant 'b' makes an app that cannot be served"),
        (#"{"x": {"variants": [{"name": "control", "patch": {"screens": {}}}, {"name": "b"}]}}"#,
         "experiments.x.variants[0].patch", "the first variant is control"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b", "patch": {"name": "Tea"}}]}}"#,
         "experiments.x.variants[1].patch.name", "a variant may not change 'name'"),
        (#"{"x": {"variants": [{"name": "control"}]}}"#, "experiments.x.variants", "must list control and at least one other variant"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "control"}]}}"#, "experiments.x.variants[1].name", "'control' is listed twice"),
        (#"{"x": {"variants": [{"name": "control", "weight": 0.5}, {"name": "b", "weight": 0.4}]}}"#, "experiments.x.variants", "the weights must sum to 1; they sum to 0.9"),
        (#"{"x": {"variants": [{"name": "control", "weight": 0.5}, {"name": "b"}]}}"#, "experiments.x.variants[1].weight", "is required when another variant gives one"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "winner": "c"}}"#, "experiments.x.winner", "'c' is not a variant"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "coverage": 1.5}}"#, "experiments.x.coverage", "must be between 0 and 1"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "unit": "device"}}"#, "experiments.x.unit", "'device' is not one of"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "start": "tomorrow"}}"#, "experiments.x.start", "not an RFC 3339 time"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "start": "2026-12-02T00:00:00Z", "stop": "2026-12-01T00:00:00Z"}}"#,
         "experiments.x.stop", "must be later than 'start'"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "metrics": [{"name": "m", "funnel": ["menu", "checkout"]}]}}"#,
         "experiments.x.metrics[0].funnel[1]", "'checkout' is a screen of no variant"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "metrics": [{"name": "m"}]}}"#, "experiments.x.metrics[0]", "give 'funnel'"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "namespace": {"name": "n", "range": [0.5, 0.5]}}}"#,
         "experiments.x.namespace.range", "must be two numbers"),
        (#"{"a b": {"variants": [{"name": "control"}, {"name": "b"}]}}"#, "experiments.a b", "cannot be an experiment's key"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b"}], "varients": []}}"#, "experiments.x.varients", "did you mean 'variants'?"),
        (#"{"x": {"variants": [{"name": "control"}, {"name": "b", "patch": {"routes": [{"path": "/promo", "flow": "main", "steps": [{"screen": "cart"}]}]}}]}}"#,
         "experiments.x.variants[1].patch", "variant 'b' routes other links than control (adds '/promo', removes '/cart')"),
    ])
    func aBadExperimentIsRefusedNamingWhere(experiments: String, key: String, message: String) {
        do {
            _ = try Self.parse(Self.coffee(experiments: experiments))
            Issue.record("read: \(experiments)")
        } catch {
            #expect(error.key == key && error.message.contains(message), "\(error)")
        }
    }

    @Test func variantsOfTwoExperimentsThatBreakTheAppTogetherAreRefused() {
        // Each alone is fine; together the route steps onto a screen neither keeps.
        let experiments = """
            {"a": {"variants": [{"name": "control"}, {"name": "x", "patch": {"screens": {"done": null}}}]},
             "b": {"variants": [{"name": "control"}, {"name": "y", "patch": {"routes": [{"path": "/cart", "flow": "main", "steps": [{"screen": "done"}]}]}}]}}
            """
        do {
            _ = try Self.parse(Self.coffee(experiments: experiments))
            Issue.record("read")
        } catch {
            #expect(error.key == "experiments" && error.message.contains("'x' of 'a' with 'y' of 'b' make an app that cannot be served"), "\(error)")
        }
    }

    @Test func aWinnerIsCheckedWithEveryCombinationEvenOfExperimentsItsNamespaceKeepsApart() {
        // Everyone runs a winner, so its patch meets the variants of every other experiment.
        let experiments = """
            {"w": {"variants": [{"name": "control"}, {"name": "x", "patch": {"screens": {"done": null}}}], "winner": "x",
                   "namespace": {"name": "ns", "range": [0, 0.5]}},
             "e": {"variants": [{"name": "control"}, {"name": "y", "patch": {"routes": [{"path": "/cart", "flow": "main", "steps": [{"screen": "done"}]}]}}],
                   "namespace": {"name": "ns", "range": [0.5, 1]}}}
            """
        do {
            _ = try Self.parse(Self.coffee(experiments: experiments))
            Issue.record("read")
        } catch {
            #expect(error.key == "experiments" && error.message.contains("'y' of 'e' with 'x' of 'w' make an app that cannot be served"), "\(error)")
        }
    }

    @Test func tooManyCombinationsAreRefusedSayingToUseNamespaces() {
        let experiments = (0..<4).map { #""e\#($0)": {"variants": [{"name": "control"}, {"name": "b"}, {"name": "c"}]}"# }.joined(separator: ", ")
        do {
            _ = try Self.parse(Self.coffee(experiments: "{\(experiments)}"))
            Issue.record("read")
        } catch {
            #expect(error.key == "experiments" && error.message.contains("more than 64 combinations") && error.message.contains("namespace"), "\(error)")
        }
    }
}
