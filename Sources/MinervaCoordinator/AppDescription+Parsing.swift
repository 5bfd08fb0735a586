import MinervaJSON

extension AppDescription {
    /// Reads and validates an app description from its JSON text.
    ///
    /// Refuses keys it does not know anywhere in the document, naming the nearest known one;
    /// checks that every screen named by the root, the tabs, the guards and the routes is
    /// declared, that route patterns are unique, and that every `:param` a step uses is a
    /// parameter of its route's path.
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - source: the file's name, for error messages.
    /// - Returns: the validated description.
    /// - Throws: ``AppDescriptionError`` naming the file and the JSON path at fault.
    public static func parse(_ bytes: some Collection<UInt8>, source: String) throws(AppDescriptionError) -> AppDescription {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw AppDescriptionError(source: source, key: "", message: "not valid JSON: \(error)")
        }
        do throws(JSONReadError) {
            return try AppReader.app(document)
        } catch {
            throw AppDescriptionError(source: source, key: error.path, message: error.reason)
        }
    }
}

/// Reads the parts of an app description; every error names its JSON path.
private enum AppReader {
    /// `$schema` lets an editor find the description's JSON Schema; the server ignores it.
    static let appKeys: JSONKeys = ["$schema", "name", "scheme", "root", "screens", "routes"]
    static let screenKeys: JSONKeys = ["presentation", "style", "embedInNavigation", "params", "title", "requires", "otherwise"]
    static let otherwiseKeys: JSONKeys = ["screen", "params"]
    static let rootKeys: JSONKeys = ["screen", "tabs"]
    static let tabKeys: JSONKeys = ["id", "screen"]
    static let routeKeys: JSONKeys = ["path", "tab", "steps"]
    static let stepKeys: JSONKeys = ["screen", "params", "presentation", "style", "embedInNavigation"]

    static func app(_ document: JSONValue) throws(JSONReadError) -> AppDescription {
        let top = try JSONObjectReader(document, keys: appKeys)
        let name = try top.optionalString("name") ?? "app"
        let scheme = try top.optionalString("scheme")
        let declared = try top.object("screens")
        guard !declared.isEmpty else { throw top.error("must declare at least one screen", at: "screens") }
        let screens = try top.members("screens", keys: screenKeys) { screen throws(JSONReadError) in
            try Self.screen(screen, declared: declared)
        }
        for screenName in screens.keys.sorted() {
            if let guarded = screens[screenName]!.guarded, screens[guarded.otherwise]?.guarded?.flag == guarded.flag {
                throw top.error(
                    "'\(guarded.otherwise)' requires '\(guarded.flag)' itself, so it could never be shown", at: "screens", .key(screenName), "otherwise")
            }
        }
        let root = try top.object("root", keys: rootKeys) { root throws(JSONReadError) in try Self.root(root, screens: screens) }
        let routes = try self.routes(top, declared: declared, screens: screens, root: root)
        return AppDescription(name: name, scheme: scheme, root: root, screens: screens, routes: routes)
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
        return AppDescription.Screen(
            presentation: presentation, style: style, embedInNavigation: embed, params: params, title: title, guarded: guarded)
    }

    static func root(_ root: JSONObjectReader, screens: [String: AppDescription.Screen]) throws(JSONReadError) -> AppDescription.Root {
        func usable(_ object: JSONObjectReader) throws(JSONReadError) -> String {
            let screen = try nonEmptyString(object, "screen")
            guard let declared = screens[screen] else { throw object.error("'\(screen)' is not declared in screens", at: "screen") }
            guard declared.params.isEmpty else { throw object.error("'\(screen)' requires params and cannot be a root screen", at: "screen") }
            return screen
        }
        guard root.contains("tabs") else { return .screen(try usable(root)) }
        guard !root.contains("screen") else { throw root.error("give either 'screen' or 'tabs', not both") }
        let tabs = try root.objects("tabs", keys: tabKeys) { tab throws(JSONReadError) in
            AppDescription.Tab(id: try nonEmptyString(tab, "id"), screen: try usable(tab))
        }
        guard !tabs.isEmpty else { throw root.error("must list at least one tab", at: "tabs") }
        for (index, tab) in tabs.enumerated() where tabs[..<index].contains(where: { $0.id == tab.id }) {
            throw root.error("tab '\(tab.id)' is listed twice", at: "tabs", .index(index), "id")
        }
        return .tabs(tabs)
    }

    static func routes(
        _ top: JSONObjectReader, declared: [String: JSONValue], screens: [String: AppDescription.Screen], root: AppDescription.Root
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
            var tab: String?
            if let tabID = try route.optionalString("tab") {
                guard case .tabs(let tabs) = root else { throw route.error("the app has no tabs", at: "tab") }
                guard tabs.contains(where: { $0.id == tabID }) else { throw route.error("'\(tabID)' is not a tab of root.tabs", at: "tab") }
                tab = tabID
            }
            let steps = try route.objects("steps", keys: stepKeys) { step throws(JSONReadError) in
                try Self.step(step, pathParams: pathParams, declared: declared, screens: screens)
            }
            return AppDescription.Route(path: path, segments: segments, steps: steps, tab: tab)
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
        for param in params.keys.sorted() {
            if let text = params[param]!.stringValue, text.hasPrefix(":"), !pathParams.contains(String(text.dropFirst())) {
                throw step.error("'\(text)' is not a parameter of the route's path", at: "params", .key(param))
            }
        }
        return AppDescription.Step(
            screen: screen, params: params,
            presentation: try enumValue(step, "presentation", as: AppDescription.PresentationMode.self),
            style: try enumValue(step, "style", as: ModalStyle.self),
            embedInNavigation: try step.optionalBool("embedInNavigation"))
    }
}
