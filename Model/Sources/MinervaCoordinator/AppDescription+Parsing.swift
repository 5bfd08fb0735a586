import MinervaJSON

extension AppDescription {
    /// Reads and validates an app description from its JSON text.
    ///
    /// Refuses keys it does not know anywhere in the document, naming the nearest known one;
    /// checks that every screen named by the roots, the tabs, the guards and the routes is
    /// declared, that route patterns are unique, that every `:param` a step uses is a parameter
    /// of its route's path, that a screen's `key` names its params, that `hosts` are host names,
    /// that `flows` and `launch` can work (every flow reachable, the last rule always holding, a
    /// completing flow chosen only while its flag is clear, every route in a flow), and that a
    /// sample list's cells navigate to declared screens with the params they require.
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - source: the file's name, for error messages.
    ///   - served: whether the bytes are the document `GET /v1/app` answers (``document(version:)``),
    ///     whose `version` member is the server's and is not read.
    /// - Returns: the validated description.
    /// - Throws: ``AppDescriptionError`` naming the file and the JSON path at fault.
    public static func parse(_ bytes: some Collection<UInt8>, source: String, served: Bool = false) throws(AppDescriptionError) -> AppDescription {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw AppDescriptionError(source: source, key: "", message: "not valid JSON: \(error)")
        }
        do throws(JSONReadError) {
            return try AppReader.app(document, served: served)
        } catch {
            throw AppDescriptionError(source: source, key: error.path, message: error.reason)
        }
    }
}

/// Reads the parts of an app description; every error names its JSON path.
enum AppReader {
    /// `$schema` lets an editor find the description's JSON Schema; the server ignores it.
    static let appKeys: JSONKeys = ["$schema", "name", "scheme", "hosts", "root", "flows", "launch", "screens", "routes", "experiments"]
    /// The members of an app a variant's patch made: a file's but `experiments`.
    static let variantKeys: JSONKeys = ["$schema", "name", "scheme", "hosts", "root", "flows", "launch", "screens", "routes"]
    /// The members of the documents the server writes (``AppDescription/document(version:)``):
    /// a file's, its `version`, and an effective app's `assigned`.
    static let servedKeys: JSONKeys = [
        "$schema", "name", "scheme", "hosts", "root", "flows", "launch", "screens", "routes", "experiments", "version", "assigned",
    ]
    static let screenKeys: JSONKeys = [
        "presentation", "style", "embedInNavigation", "params", "key", "title", "requires", "otherwise", "flow", "sheet", "dismissible", "sampleList",
        "result", "holdsLinks",
    ]
    static let otherwiseKeys: JSONKeys = ["screen", "params"]
    static let rootKeys: JSONKeys = ["screen", "tabs", "split", "sidebar"]
    static let splitKeys: JSONKeys = ["columns", "primary", "compactTop"]
    static let primaryKeys: JSONKeys = ["screen"]
    static let tabKeys: JSONKeys = ["id", "screen"]
    static let flowKeys: JSONKeys = ["root", "completes", "overlay"]
    static let launchKeys: JSONKeys = ["if", "unless", "flow"]
    static let routeKeys: JSONKeys = ["path", "flow", "tab", "steps"]
    static let stepKeys: JSONKeys = ["screen", "params", "presentation", "style", "embedInNavigation", "fresh"]

    /// An app description, with its experiments (each variant's app checked) and, in a
    /// document the server wrote, the experiments an effective app runs.
    static func app(_ document: JSONValue, served: Bool) throws(JSONReadError) -> AppDescription {
        let top = try JSONObjectReader(document, keys: served ? servedKeys : appKeys)
        var app = try plainApp(top)
        if served { app.assigned = try ExperimentReader.assigned(top, app: app) }
        if top.contains("experiments") { app.experiments = try ExperimentReader.experiments(top, base: app) }
        return app
    }

    /// The app a variant's patch made: no experiments of its own.
    static func variantApp(_ document: JSONValue) throws(JSONReadError) -> AppDescription {
        try plainApp(JSONObjectReader(document, keys: variantKeys))
    }

    /// Everything but the experiments.
    private static func plainApp(_ top: JSONObjectReader) throws(JSONReadError) -> AppDescription {
        let name = try top.optionalString("name") ?? "app"
        let scheme = try top.optionalString("scheme")
        let declared = try top.object("screens")
        guard !declared.isEmpty else { throw top.error("must declare at least one screen", at: "screens") }
        var screens = try top.members("screens", keys: screenKeys) { screen throws(JSONReadError) in
            try Self.screen(screen, declared: declared)
        }
        let sampleLists = try top.members("screens", keys: screenKeys) { [screens] screen throws(JSONReadError) in
            try SampleListReader.read(screen, screens: screens)
        }
        for (screenName, sampleList) in sampleLists { screens[screenName]?.sampleList = sampleList }
        for (screenName, screen) in screens.sorted(by: { $0.key < $1.key }) {
            if let guarded = screen.guarded, screens[guarded.otherwise]?.guarded?.flag == guarded.flag {
                throw top.error(
                    "'\(guarded.otherwise)' requires '\(guarded.flag)' itself, so it could never be shown", at: "screens", .key(screenName), "otherwise")
            }
        }
        let hosts = try self.hosts(top)
        guard !top.contains("root") else {
            for key in ["flows", "launch"] where top.contains(key) {
                throw top.error("give either 'root' (one flow) or 'flows' with 'launch', not both", at: .key(key))
            }
            let root = try top.object("root", keys: rootKeys) { root throws(JSONReadError) in try Self.root(root, screens: screens) }
            let flows = [AppDescription.singleFlow: AppDescription.Flow(name: AppDescription.singleFlow, root: root)]
            let routes = try self.routes(top, declared: declared, screens: screens, flows: flows)
            return AppDescription(name: name, scheme: scheme, hosts: hosts, root: root, screens: screens, routes: routes)
        }
        guard top.contains("flows") else { throw top.error("is required: give 'root' (one flow) or 'flows' with 'launch'", at: "root") }
        let flows = try top.members("flows", keys: flowKeys) { flow throws(JSONReadError) in
            (
                try flow.object("root", keys: rootKeys) { root throws(JSONReadError) in try Self.root(root, screens: screens) }, try flow.optionalString("completes"),
                try flow.optionalBool("overlay") ?? false
            )
        }
        guard !flows.isEmpty else { throw top.error("must declare at least one flow", at: "flows") }
        var named: [String: AppDescription.Flow] = [:]
        for (flowName, (root, completes, overlay)) in flows {
            if flowName.isEmpty || Self.looksLikeNodeID(flowName) {
                throw top.error("'\(flowName)' cannot name a flow: names of the form n<digits> are node ids", at: "flows", .key(flowName))
            }
            if completes?.isEmpty == true { throw top.error("must not be empty", at: "flows", .key(flowName), "completes") }
            if overlay, root.tabs != nil || root.split != nil {
                throw top.error(
                    "an overlay shows one screen at its root (it may push and present from there), not tabs or a split view: give \"root\": {\"screen\": …}",
                    at: "flows", .key(flowName), "root")
            }
            named[flowName] = AppDescription.Flow(name: flowName, root: root, completes: completes, overlay: overlay)
        }
        let launch = try self.launch(top, flows: named)
        let routes = try self.routes(top, declared: declared, screens: screens, flows: named)
        return AppDescription(name: name, scheme: scheme, hosts: hosts, flows: named, launch: launch, screens: screens, routes: routes)
    }

    /// Why a flow name is not one: the nearest declared name, or all of them.
    static func unknownFlow(_ name: String, _ flows: [String: AppDescription.Flow]) -> String {
        let names = flows.keys.sorted()
        if let nearest = JSONKeys(names).nearest(to: name) { return "'\(name)' is not declared in flows; did you mean '\(nearest)'?" }
        return "'\(name)' is not declared in flows; the flows are: \(names.joined(separator: ", "))"
    }

    /// Whether a name has the form of a node id (`n12`), which a flow name may not take.
    static func looksLikeNodeID(_ name: String) -> Bool {
        name.count > 1 && name.first == "n" && name.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `hosts`: host names of universal links, lowercased, without scheme, port or path.
    static func hosts(_ top: JSONObjectReader) throws(JSONReadError) -> [String] {
        var hosts: [String] = []
        for (index, element) in (try top.optionalArray("hosts") ?? []).enumerated() {
            guard let host = element.stringValue?.lowercased(), !host.isEmpty else {
                throw top.error("must be a non-empty string", at: "hosts", .index(index))
            }
            guard host.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }),
                host.first != ".", host.last != "."
            else {
                throw top.error("'\(host)' is not a host name: give the host alone, as 'shop.example.com' (no scheme, port, user or path)", at: "hosts", .index(index))
            }
            guard !hosts.contains(host) else { throw top.error("'\(host)' is listed twice", at: "hosts", .index(index)) }
            hosts.append(host)
        }
        return hosts
    }

    /// `launch`: rules naming declared flows; the last holds always, every flow is reachable,
    /// and a flow that `completes` a flag is chosen only while that flag is missing.
    static func launch(_ top: JSONObjectReader, flows: [String: AppDescription.Flow]) throws(JSONReadError) -> [AppDescription.LaunchRule] {
        guard top.contains("launch") else { throw top.error("is required with 'flows': the rules that choose a session's flow by its flags", at: "launch") }
        let rules = try top.objects("launch", keys: launchKeys) { rule throws(JSONReadError) in
            let flow = try nonEmptyString(rule, "flow")
            guard flows[flow] != nil else { throw rule.error(unknownFlow(flow, flows), at: "flow") }
            let ifFlag = try rule.optionalString("if")
            let unless = try rule.optionalString("unless")
            for (key, flag) in [("if", ifFlag), ("unless", unless)] where flag?.isEmpty == true {
                throw rule.error("must not be empty", at: .key(key))
            }
            return AppDescription.LaunchRule(ifFlag: ifFlag, unless: unless, flow: flow)
        }
        guard let last = rules.last else { throw top.error("must list at least one rule", at: "launch") }
        guard last.holdsAlways else {
            throw top.error("the last rule must hold whatever the flags: remove its 'if' and 'unless'", at: "launch", .index(rules.count - 1))
        }
        guard flows[last.flow]?.overlay != true else {
            throw top.error(
                "the last rule chooses overlay '\(last.flow)', which needs a flow beneath it: end with a rule for a flow that is not an overlay",
                at: "launch", .index(rules.count - 1))
        }
        if let always = rules.firstIndex(where: \.holdsAlways), always != rules.count - 1 {
            throw top.error("holds whatever the flags, so the rules after it are never used", at: "launch", .index(always))
        }
        for name in flows.keys.sorted() where !rules.contains(where: { $0.flow == name }) {
            throw top.error("no launch rule chooses '\(name)': add one, or remove the flow", at: "flows", .key(name))
        }
        for (name, flow) in flows.sorted(by: { $0.key < $1.key }) {
            guard let flag = flow.completes else { continue }
            guard rules.contains(where: { $0.ifFlag == flag || $0.unless == flag }) else {
                throw top.error("'\(flag)' is read by no launch rule, so finishing '\(name)' would change nothing", at: "flows", .key(name), "completes")
            }
            for (index, rule) in rules.enumerated() where rule.flow == name && rule.unless != flag {
                throw top.error(
                    "chooses '\(name)', which completes '\(flag)', without \"unless\": \"\(flag)\": the session would come back to it once it finished",
                    at: "launch", .index(index))
            }
        }
        return rules
    }

    /// A required string that must not be empty.
    static func nonEmptyString(_ object: JSONObjectReader, _ key: String) throws(JSONReadError) -> String {
        let text = try object.string(key)
        guard !text.isEmpty else { throw object.error("must not be empty", at: .key(key)) }
        return text
    }

    /// A required screen name that `screens` declares.
    static func declaredScreen(_ object: JSONObjectReader, _ key: String, _ declared: [String: JSONValue]) throws(JSONReadError) -> String {
        let screen = try nonEmptyString(object, key)
        guard declared[screen] != nil else { throw object.error("'\(screen)' is not declared in screens", at: .key(key)) }
        return screen
    }

    static func enumValue<T: RawRepresentable & CaseIterable>(_ object: JSONObjectReader, _ key: String, as: T.Type) throws(JSONReadError) -> T?
    where T.RawValue == String {
        guard let text = try object.optionalString(key) else { return nil }
        guard let result = T(rawValue: text) else {
            let allowed = T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw object.error("'\(text)' is not one of \(allowed)", at: .key(key))
        }
        return result
    }

    static func screen(_ screen: JSONObjectReader, declared: [String: JSONValue]) throws(JSONReadError) -> AppDescription.Screen {
        let presentation = try enumValue(screen, "presentation", as: AppDescription.PresentationMode.self) ?? .push
        let style = try enumValue(screen, "style", as: ModalStyle.self)
        let embed = try screen.optionalBool("embedInNavigation")
        var params: [String] = []
        for (index, element) in (try screen.optionalArray("params") ?? []).enumerated() {
            guard let param = element.stringValue, !param.isEmpty else { throw screen.error("must be a non-empty string", at: "params", .index(index)) }
            guard !params.contains(param) else { throw screen.error("'\(param)' is listed twice", at: "params", .index(index)) }
            params.append(param)
        }
        var key: [String]?
        if let listed = try screen.optionalArray("key") {
            var listedKey: [String] = []
            for (index, element) in listed.enumerated() {
                guard let param = element.stringValue, params.contains(param) else {
                    throw screen.error("must name a declared param (\(params.isEmpty ? "the screen declares none" : params.joined(separator: ", ")))", at: "key", .index(index))
                }
                guard !listedKey.contains(param) else { throw screen.error("'\(param)' is listed twice", at: "key", .index(index)) }
                listedKey.append(param)
            }
            key = listedKey
        }
        let title = try screen.optionalString("title")
        var guarded: AppDescription.Guard?
        switch (try screen.optionalString("requires"), screen.contains("otherwise")) {
        case (nil, false):
            break
        case (.some, false):
            throw screen.error("is required with 'requires': name the screen shown while the flag is missing", at: "otherwise")
        case (nil, true):
            throw screen.error("is required with 'otherwise'", at: "requires")
        case (.some(let flag), true):
            guard !flag.isEmpty else { throw screen.error("must not be empty", at: "requires") }
            guarded = try screen.object("otherwise", keys: otherwiseKeys) { flow throws(JSONReadError) in
                AppDescription.Guard(
                    flag: flag, otherwise: try declaredScreen(flow, "screen", declared), otherwiseParams: try flow.optionalObject("params") ?? [:])
            }
        }
        let sheet = try screen.optionalObject("sheet", keys: PresentationSettings.sheetKeys, PresentationSettings.sheet)
        if let problem = sheet?.problem { throw screen.error(problem, at: "sheet") }
        if sheet != nil, presentation == .push {
            throw screen.error("a sheet's detents apply to a presented screen, and this one is pushed: give it \"presentation\": \"present\"", at: "sheet")
        }
        return AppDescription.Screen(
            presentation: presentation, style: style, embedInNavigation: embed, params: params, title: title, guarded: guarded, key: key,
            flow: try screen.optionalBool("flow") ?? false, sheet: sheet, dismissible: try screen.optionalBool("dismissible"),
            returnsResult: try screen.optionalBool("result") ?? false, holdsLinks: try screen.optionalBool("holdsLinks") ?? false)
    }

    static func root(_ root: JSONObjectReader, screens: [String: AppDescription.Screen]) throws(JSONReadError) -> AppDescription.Root {
        func usable(_ object: JSONObjectReader) throws(JSONReadError) -> String {
            let screen = try nonEmptyString(object, "screen")
            guard let declared = screens[screen] else { throw object.error("'\(screen)' is not declared in screens", at: "screen") }
            guard declared.params.isEmpty else { throw object.error("'\(screen)' requires params and cannot be a root screen", at: "screen") }
            return screen
        }
        let given = ["screen", "tabs", "split"].filter(root.contains)
        guard given.count <= 1 else { throw root.error("give one of 'screen', 'tabs' or 'split', not \(given.joined(separator: " and "))") }
        let sidebar = try root.optionalBool("sidebar")
        if sidebar != nil, !root.contains("tabs") {
            throw root.error("'sidebar' is the form of a tab bar at regular width: give it with 'tabs'", at: "sidebar")
        }
        if root.contains("split") {
            return .split(
                try root.object("split", keys: splitKeys) { split throws(JSONReadError) in
                    let columns = try split.optionalInt("columns") ?? 2
                    guard columns == 2 || columns == 3 else {
                        throw split.error("must be 2 (primary and detail) or 3 (primary, supplementary and detail)", at: "columns")
                    }
                    return AppDescription.Split(
                        columns: columns, primary: try split.object("primary", keys: primaryKeys) { primary throws(JSONReadError) in try usable(primary) },
                        compactTop: try enumValue(split, "compactTop", as: AppDescription.Split.CompactTop.self) ?? .deepest)
                })
        }
        guard root.contains("tabs") else { return .screen(try usable(root)) }
        var index = 0
        let tabs = try root.objects("tabs", keys: tabKeys) { tab throws(JSONReadError) in
            defer { index += 1 }
            let screen = try usable(tab)
            if screens[screen]?.presentation == .present {
                throw tab.error("'\(screen)' is presented (a sheet or a cover over the tab bar), so it cannot be a tab's root: give the tab a pushed screen", at: "screen")
            }
            if index == 0, let guarded = screens[screen]?.guarded {
                throw tab.error(
                    "'\(screen)' requires '\(guarded.flag)', but the first tab is selected when the flow starts, where no guard can hold: "
                        + "put it on another tab, or guard the screens it leads to", at: "screen")
            }
            return AppDescription.Tab(id: try nonEmptyString(tab, "id"), screen: screen)
        }
        guard !tabs.isEmpty else { throw root.error("must list at least one tab", at: "tabs") }
        for (index, tab) in tabs.enumerated() where tabs[..<index].contains(where: { $0.id == tab.id }) {
            throw root.error("tab '\(tab.id)' is listed twice", at: "tabs", .index(index), "id")
        }
        return .tabs(tabs, sidebar: sidebar ?? false)
    }

    static func routes(
        _ top: JSONObjectReader, declared: [String: JSONValue], screens: [String: AppDescription.Screen], flows: [String: AppDescription.Flow]
    ) throws(JSONReadError) -> [AppDescription.Route] {
        // Each route read so far added one pattern, so a pattern's value is its route's index.
        var patterns: [String: Int] = [:]
        return try top.optionalObjects("routes", keys: routeKeys) { route throws(JSONReadError) in
            let path = try nonEmptyString(route, "path")
            guard path.hasPrefix("/") else { throw route.error("'\(path)' must start with '/'", at: "path") }
            let segments = path.split(separator: "/").map(String.init)
            var pathParams: Set<String> = []
            for segment in segments where segment.hasPrefix(":") {
                let name = String(segment.dropFirst())
                guard !name.isEmpty else { throw route.error("'\(path)' has a parameter without a name", at: "path") }
                guard pathParams.insert(name).inserted else { throw route.error("'\(path)' names ':\(name)' twice", at: "path") }
            }
            let pattern = "/" + segments.map { $0.hasPrefix(":") ? ":" : $0 }.joined(separator: "/")
            if let earlier = patterns[pattern] {
                throw route.error("'\(path)' matches the same paths as routes[\(earlier)]", at: "path")
            }
            patterns[pattern] = patterns.count
            let flow: String
            let declaredFlow: AppDescription.Flow
            if let named = try route.optionalString("flow") {
                guard let named = flows[named].map({ (named, $0) }) else { throw route.error(unknownFlow(named, flows), at: "flow") }
                guard !named.1.overlay else {
                    throw route.error(
                        "'\(named.0)' is an overlay: a link that arrives while it is shown waits for the flow beneath, so no route opens in it; name that flow",
                        at: "flow")
                }
                (flow, declaredFlow) = named
            } else {
                guard flows.count == 1, let only = flows.first else {
                    throw route.error("is required when the app has several flows: name the flow the link opens in", at: "flow")
                }
                (flow, declaredFlow) = (only.key, only.value)
            }
            var tab: String?
            if let tabID = try route.optionalString("tab") {
                let where_ = flows.count == 1 ? "the app has" : "flow '\(flow)' has"
                guard let tabs = declaredFlow.root.tabs else { throw route.error("\(where_) no tabs", at: "tab") }
                guard tabs.contains(where: { $0.id == tabID }) else {
                    throw route.error("'\(tabID)' is not a tab: \(where_) \(tabs.map(\.id).joined(separator: ", "))", at: "tab")
                }
                tab = tabID
            }
            let steps = try route.objects("steps", keys: stepKeys) { step throws(JSONReadError) in
                try Self.step(step, pathParams: pathParams, declared: declared, screens: screens)
            }
            return AppDescription.Route(path: path, segments: segments, steps: steps, tab: tab, flow: flow)
        } ?? []
    }

    static func step(
        _ step: JSONObjectReader, pathParams: Set<String>, declared: [String: JSONValue], screens: [String: AppDescription.Screen]
    ) throws(JSONReadError) -> AppDescription.Step {
        let screen = try declaredScreen(step, "screen", declared)
        let params = try step.optionalObject("params") ?? [:]
        // Checked end to end at start: a link must not fail only when a user follows it.
        for required in screens[screen]?.params ?? [] where params[required] == nil || params[required] == .null {
            throw step.error(
                "'\(screen)' requires the param '\(required)': give it as a constant or as ':name' from the route's path", at: "params")
        }
        for (param, value) in params.sorted(by: { $0.key < $1.key }) {
            if let text = value.stringValue, text.hasPrefix(":"), !pathParams.contains(String(text.dropFirst())) {
                throw step.error("'\(text)' is not a parameter of the route's path", at: "params", .key(param))
            }
        }
        return AppDescription.Step(
            screen: screen, params: params,
            presentation: try enumValue(step, "presentation", as: AppDescription.PresentationMode.self),
            style: try enumValue(step, "style", as: ModalStyle.self),
            embedInNavigation: try step.optionalBool("embedInNavigation"), fresh: try step.optionalBool("fresh") ?? false)
    }
}
