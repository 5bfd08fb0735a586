import MinervaJSON

/// Reads an app description's `experiments`, checking the app every variant makes (alone, and
/// with the variants of other experiments a session may run with it), and an effective app's
/// `assigned`; every error names its JSON path.
enum ExperimentReader {
    static let experimentKeys: JSONKeys = ["unit", "coverage", "variants", "metrics", "winner", "bucketVersion", "namespace", "start", "stop"]
    static let variantKeys: JSONKeys = ["name", "weight", "patch"]
    static let metricKeys: JSONKeys = ["name", "funnel", "completes", "guardrail"]
    static let namespaceKeys: JSONKeys = ["name", "range"]
    static let assignedKeys: JSONKeys = ["experiment", "variant", "differs"]
    /// Members of the app description a patch may not change: what names the app, and the
    /// experiments themselves.
    static let fixedMembers = ["$schema", "name", "experiments", "assigned", "version"]

    /// `experiments`, by key in sorted order, each with the screens where its variants differ.
    static func experiments(_ top: JSONObjectReader, base: AppDescription) throws(JSONReadError) -> [AppDescription.Experiment] {
        var experiments = try top.members("experiments", keys: experimentKeys) { experiment throws(JSONReadError) in
            try Self.experiment(experiment)
        }.sorted { $0.key < $1.key }.map { key, experiment in
            var named = experiment
            named.key = key
            return named
        }
        let baseDocument = base.plainDocument
        for index in experiments.indices {
            let key = experiments[index].key
            guard isKey(key) else {
                throw top.error(
                    "'\(key)' cannot be an experiment's key: use 1 to 64 letters, digits, '.', '_' or '-' (it names the experiment in states, events and URLs)",
                    at: "experiments", .key(key))
            }
            var differs: Set<String> = []
            var apps = [base]
            for (variantIndex, variant) in experiments[index].variants.enumerated().dropFirst() {
                let app: AppDescription
                do throws(JSONReadError) {
                    app = try AppReader.variantApp(baseDocument.merging(patch: variant.patch))
                } catch {
                    throw top.error(
                        "variant '\(variant.name)' makes an app that cannot be served: \(error.description)",
                        at: "experiments", .key(key), "variants", .index(variantIndex), "patch")
                }
                let paths = (Set(base.routes.map(\.path)), Set(app.routes.map(\.path)))
                guard paths.0 == paths.1 else {
                    let added = paths.1.subtracting(paths.0).sorted().map { "adds '\($0)'" }
                    let removed = paths.0.subtracting(paths.1).sorted().map { "removes '\($0)'" }
                    throw top.error(
                        "variant '\(variant.name)' routes other links than control (\((added + removed).joined(separator: ", "))): every variant routes "
                            + "the same paths, so that a link opens whatever a session drew; change a route's steps, not its path",
                        at: "experiments", .key(key), "variants", .index(variantIndex), "patch")
                }
                differs.formUnion(base.screensDiffering(from: app))
                apps.append(app)
            }
            try checkMetrics(experiments[index], apps: apps, top)
            experiments[index].differs = differs.sorted()
        }
        try checkCombinations(experiments, base: baseDocument, top)
        return experiments
    }

    /// One experiment, its key not yet known (``experiments(_:base:)`` sets it).
    private static func experiment(_ object: JSONObjectReader) throws(JSONReadError) -> AppDescription.Experiment {
        let coverage = try object.optionalDouble("coverage") ?? 1
        guard (0...1).contains(coverage) else { throw object.error("must be between 0 and 1 (the share of units in the experiment)", at: "coverage") }
        let variants = try self.variants(object)
        var metricNames: Set<String> = []
        let metrics = try object.optionalObjects("metrics", keys: metricKeys) { metric throws(JSONReadError) -> AppDescription.Experiment.Metric in
            let read = try self.metric(metric)
            guard metricNames.insert(read.name).inserted else { throw metric.error("'\(read.name)' is listed twice", at: "name") }
            return read
        } ?? []
        let winner = try object.optionalString("winner")
        if let winner, !variants.contains(where: { $0.name == winner }) {
            throw object.error("'\(winner)' is not a variant: the variants are \(variants.map(\.name).joined(separator: ", "))", at: "winner")
        }
        let bucketVersion = try object.optionalInt("bucketVersion") ?? 0
        guard bucketVersion >= 0 else { throw object.error("must be 0 or more", at: "bucketVersion") }
        let namespace = try object.optionalObject("namespace", keys: namespaceKeys) { namespace throws(JSONReadError) in
            try Self.namespace(namespace)
        }
        let start = try time(object, "start")
        let stop = try time(object, "stop")
        if let start, let stop, stop <= start { throw object.error("must be later than 'start'", at: "stop") }
        return AppDescription.Experiment(
            key: "", unit: try AppReader.enumValue(object, "unit", as: AppDescription.Experiment.Unit.self) ?? .session, coverage: coverage,
            variants: variants, metrics: metrics, winner: winner, bucketVersion: bucketVersion, namespace: namespace, start: start, stop: stop,
            differs: [])
    }

    /// `variants`: at least two, control first and without a patch, the weights all given
    /// (summing to 1) or none (equal shares).
    private static func variants(_ object: JSONObjectReader) throws(JSONReadError) -> [AppDescription.Experiment.Variant] {
        var names: Set<String> = []
        var weights: [Double?] = []
        var index = 0
        var variants = try object.objects("variants", keys: variantKeys) { variant throws(JSONReadError) in
            defer { index += 1 }
            let name = try AppReader.nonEmptyString(variant, "name")
            guard names.insert(name).inserted else { throw variant.error("'\(name)' is listed twice", at: "name") }
            let weight = try variant.optionalDouble("weight")
            if let weight, !(weight >= 0 && weight <= 1) { throw variant.error("must be between 0 and 1", at: "weight") }
            weights.append(weight)
            let patch = variant.value("patch") ?? .object([:])
            guard case .object(let members) = patch else { throw variant.error("must be an object: a JSON Merge Patch of the app description", at: "patch") }
            if index == 0, !members.isEmpty {
                throw variant.error("the first variant is control, which runs the app as written: move the change to another variant", at: "patch")
            }
            for member in fixedMembers where members[member] != nil {
                throw variant.error("a variant may not change '\(member)'", at: "patch", .key(member))
            }
            return AppDescription.Experiment.Variant(name: name, weight: weight ?? 0, patch: patch)
        }
        guard variants.count >= 2 else { throw object.error("must list control and at least one other variant", at: "variants") }
        let given = weights.compactMap { $0 }
        if given.isEmpty {
            for variantIndex in variants.indices { variants[variantIndex].weight = 1 / Double(variants.count) }
        } else {
            guard given.count == variants.count else {
                let missing = weights.firstIndex { $0 == nil } ?? 0
                throw object.error("is required when another variant gives one (give every weight, or none for equal shares)", at: "variants", .index(missing), "weight")
            }
            let sum = given.reduce(0, +)
            guard abs(sum - 1) <= 1e-9 else { throw object.error("the weights must sum to 1; they sum to \(sum)", at: "variants") }
        }
        return variants
    }

    /// One metric: a funnel of screens or a flow completed.
    private static func metric(_ metric: JSONObjectReader) throws(JSONReadError) -> AppDescription.Experiment.Metric {
        let name = try AppReader.nonEmptyString(metric, "name")
        let goal: AppDescription.Experiment.Metric.Goal
        switch (try metric.optionalStrings("funnel"), try metric.optionalString("completes")) {
        case (.some(let screens), nil):
            guard !screens.isEmpty, !screens.contains(where: \.isEmpty) else { throw metric.error("must list one or more screen names", at: "funnel") }
            goal = .funnel(screens)
        case (nil, .some(let flow)):
            guard !flow.isEmpty else { throw metric.error("must not be empty", at: "completes") }
            goal = .completes(flow)
        case (.some, .some):
            throw metric.error("give one of 'funnel' or 'completes', not both")
        case (nil, nil):
            throw metric.error("give 'funnel' (screens reached in order) or 'completes' (a flow finished with success)")
        }
        return AppDescription.Experiment.Metric(name: name, goal: goal, guardrail: try metric.optionalBool("guardrail") ?? false)
    }

    /// `namespace`: a name and a range `[lower, upper]` of it.
    private static func namespace(_ namespace: JSONObjectReader) throws(JSONReadError) -> AppDescription.Experiment.Namespace {
        let name = try AppReader.nonEmptyString(namespace, "name")
        let range = try namespace.array("range")
        let bounds = range.compactMap { bound -> Double? in
            switch bound {
            case .int(let value): Double(value)
            case .double(let value): value
            default: nil
            }
        }
        guard bounds.count == 2, range.count == 2, let lower = bounds.first, let upper = bounds.last, 0 <= lower, lower < upper, upper <= 1 else {
            throw namespace.error("must be two numbers [lower, upper] with 0 ≤ lower < upper ≤ 1 (the share of the namespace's hash)", at: "range")
        }
        return AppDescription.Experiment.Namespace(name: name, lower: lower, upper: upper)
    }

    /// An RFC 3339 time, in milliseconds since 1970.
    private static func time(_ object: JSONObjectReader, _ key: String) throws(JSONReadError) -> Int? {
        guard let text = try object.optionalString(key) else { return nil }
        guard let time = Timestamp.milliseconds(rfc3339: text) else {
            throw object.error("'\(text)' is not an RFC 3339 time (2026-12-01T09:00:00Z)", at: .key(key))
        }
        return time
    }

    /// Whether a key can name an experiment in a URL path.
    private static func isKey(_ key: String) -> Bool {
        (1...64).contains(key.utf8.count)
            && key.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    /// Every screen a metric names is declared by control or a variant; a flow it completes is
    /// a screen or a launch flow.
    private static func checkMetrics(_ experiment: AppDescription.Experiment, apps: [AppDescription], _ top: JSONObjectReader) throws(JSONReadError) {
        for (index, metric) in experiment.metrics.enumerated() {
            switch metric.goal {
            case .funnel(let screens):
                for (step, screen) in screens.enumerated() where !apps.contains(where: { $0.screens[screen] != nil }) {
                    throw top.error("'\(screen)' is a screen of no variant", at: "experiments", .key(experiment.key), "metrics", .index(index), "funnel", .index(step))
                }
            case .completes(let flow):
                guard apps.contains(where: { $0.screens[flow] != nil || ($0.declaresFlows && $0.flows[flow] != nil) }) else {
                    throw top.error(
                        "'\(flow)' is neither a screen nor a launch flow of any variant", at: "experiments", .key(experiment.key), "metrics", .index(index), "completes")
                }
            }
        }
    }

    /// Checks the app of every combination of variants of several experiments that one session
    /// may run (experiments whose namespace shares do not overlap never meet).
    private static func checkCombinations(_ experiments: [AppDescription.Experiment], base: JSONValue, _ top: JSONObjectReader) throws(JSONReadError) {
        let combinations = AppDescription.combinations(of: experiments)
        guard combinations.count <= AppDescription.maximumCombinations else {
            throw top.error(
                "one session may run more than \(AppDescription.maximumCombinations) combinations of variants (each an app checked at start): "
                    + "give experiments a namespace so that they exclude each other", at: "experiments")
        }
        for combination in combinations where combination.count >= 2 || combination.contains(where: { !$0.counted }) {
            var document = base
            for choice in combination {
                document = document.merging(patch: experiments.first { $0.key == choice.experiment }?.variant(named: choice.variant)?.patch ?? .object([:]))
            }
            do throws(JSONReadError) {
                _ = try AppReader.variantApp(document)
            } catch {
                let named = combination.map { "'\($0.variant)' of '\($0.experiment)'" }.joined(separator: " with ")
                throw top.error("\(named) make an app that cannot be served: \(error.description)", at: "experiments")
            }
        }
    }

    /// `assigned`, in a document the server wrote of an effective app.
    static func assigned(_ top: JSONObjectReader, app: AppDescription) throws(JSONReadError) -> [AppDescription.Assignment] {
        try top.optionalObjects("assigned", keys: assignedKeys) { assignment throws(JSONReadError) in
            AppDescription.Assignment(
                experiment: try AppReader.nonEmptyString(assignment, "experiment"), variant: try AppReader.nonEmptyString(assignment, "variant"),
                differs: try assignment.strings("differs"))
        } ?? []
    }
}
