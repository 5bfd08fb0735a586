import MinervaJSON

extension AppDescription {
    /// Reads and validates an app description from its JSON text.
    ///
    /// Checks that every screen named by the root, the tabs, the guards and the routes is
    /// declared, that route patterns are unique, and that every `:param` a step uses is a
    /// parameter of its route's path.
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - source: the file's name, for error messages.
    /// - Returns: the validated description.
    /// - Throws: ``AppDescriptionError`` naming the file and key at fault.
    public static func parse(_ bytes: some Collection<UInt8>, source: String) throws(AppDescriptionError) -> AppDescription {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw AppDescriptionError(source: source, key: "", message: "not valid JSON: \(error)")
        }
        return try AppReader(source: source).app(document)
    }
}

private struct AppReader {
    let source: String

    func fail(_ key: String, _ message: String) -> AppDescriptionError {
        AppDescriptionError(source: source, key: key, message: message)
    }

    func object(_ value: JSONValue?, _ key: String) throws(AppDescriptionError) -> [String: JSONValue] {
        guard let value, value != .null else { throw fail(key, "is required") }
        guard let members = value.objectValue else { throw fail(key, "must be an object, not \(value.typeName)") }
        return members
    }

    func array(_ value: JSONValue?, _ key: String) throws(AppDescriptionError) -> [JSONValue]? {
        guard let value, value != .null else { return nil }
        guard let elements = value.arrayValue else { throw fail(key, "must be an array, not \(value.typeName)") }
        return elements
    }

    func string(_ value: JSONValue?, _ key: String) throws(AppDescriptionError) -> String? {
        guard let value, value != .null else { return nil }
        guard let text = value.stringValue else { throw fail(key, "must be a string, not \(value.typeName)") }
        return text
    }

    func requiredString(_ value: JSONValue?, _ key: String) throws(AppDescriptionError) -> String {
        guard let text = try string(value, key) else { throw fail(key, "is required") }
        guard !text.isEmpty else { throw fail(key, "must not be empty") }
        return text
    }

    func bool(_ value: JSONValue?, _ key: String) throws(AppDescriptionError) -> Bool? {
        guard let value, value != .null else { return nil }
        guard let flag = value.boolValue else { throw fail(key, "must be a boolean, not \(value.typeName)") }
        return flag
    }

    func enumValue<T: RawRepresentable & CaseIterable>(_ value: JSONValue?, _ key: String, as: T.Type) throws(AppDescriptionError) -> T?
    where T.RawValue == String {
        guard let text = try string(value, key) else { return nil }
        guard let result = T(rawValue: text) else {
            let allowed = T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw fail(key, "'\(text)' is not one of \(allowed)")
        }
        return result
    }

    func declared(_ screen: String, _ screens: [String: JSONValue], _ key: String) throws(AppDescriptionError) {
        guard screens[screen] != nil else { throw fail(key, "'\(screen)' is not declared in screens") }
    }

    func app(_ document: JSONValue) throws(AppDescriptionError) -> AppDescription {
        let top = try object(document, "")
        let name = try string(top["name"], "name") ?? "app"
        let scheme = try string(top["scheme"], "scheme")
        let screensObject = try object(top["screens"], "screens")
        guard !screensObject.isEmpty else { throw fail("screens", "must declare at least one screen") }
        var screens: [String: AppDescription.Screen] = [:]
        for screenName in screensObject.keys.sorted() {
            screens[screenName] = try screen(screensObject[screenName]!, "screens.\(screenName)", all: screensObject)
        }
        for screenName in screensObject.keys.sorted() {
            if let guarded = screens[screenName]!.guarded, screens[guarded.otherwise]?.guarded?.flag == guarded.flag {
                throw fail("screens.\(screenName).otherwise", "'\(guarded.otherwise)' requires '\(guarded.flag)' itself, so it could never be shown")
            }
        }
        let root = try self.root(try object(top["root"], "root"), screens: screens, all: screensObject)
        let routes = try self.routes(top["routes"], screens: screens, all: screensObject, root: root)
        return AppDescription(name: name, scheme: scheme, root: root, screens: screens, routes: routes)
    }

    func screen(_ value: JSONValue, _ key: String, all: [String: JSONValue]) throws(AppDescriptionError) -> AppDescription.Screen {
        let members = try object(value, key)
        let presentation = try enumValue(members["presentation"], "\(key).presentation", as: AppDescription.PresentationMode.self) ?? .push
        let style = try enumValue(members["style"], "\(key).style", as: ModalStyle.self)
        let embed = try bool(members["embedInNavigation"], "\(key).embedInNavigation")
        var params: [String] = []
        for (index, element) in (try array(members["params"], "\(key).params") ?? []).enumerated() {
            guard let param = element.stringValue, !param.isEmpty else {
                throw fail("\(key).params[\(index)]", "must be a non-empty string")
            }
            guard !params.contains(param) else { throw fail("\(key).params[\(index)]", "'\(param)' is listed twice") }
            params.append(param)
        }
        let title = try string(members["title"], "\(key).title")
        var guarded: AppDescription.Guard?
        let requires = try string(members["requires"], "\(key).requires")
        let otherwise = members["otherwise"].flatMap { $0 == .null ? nil : $0 }
        switch (requires, otherwise) {
        case (nil, nil):
            break
        case (.some, nil):
            throw fail("\(key).otherwise", "is required with 'requires': name the screen shown while the flag is missing")
        case (nil, .some):
            throw fail("\(key).requires", "is required with 'otherwise'")
        case let (.some(flag), .some(flow)):
            guard !flag.isEmpty else { throw fail("\(key).requires", "must not be empty") }
            let flowMembers = try object(flow, "\(key).otherwise")
            let flowScreen = try requiredString(flowMembers["screen"], "\(key).otherwise.screen")
            try declared(flowScreen, all, "\(key).otherwise.screen")
            let flowParams = try object(flowMembers["params"] ?? .object([:]), "\(key).otherwise.params")
            guarded = AppDescription.Guard(flag: flag, otherwise: flowScreen, otherwiseParams: flowParams)
        }
        return AppDescription.Screen(
            presentation: presentation, style: style, embedInNavigation: embed, params: params, title: title, guarded: guarded)
    }

    func root(_ members: [String: JSONValue], screens: [String: AppDescription.Screen], all: [String: JSONValue])
        throws(AppDescriptionError) -> AppDescription.Root
    {
        func usable(_ screen: String, _ key: String) throws(AppDescriptionError) {
            try declared(screen, all, key)
            guard screens[screen]!.params.isEmpty else { throw fail(key, "'\(screen)' requires params and cannot be a root screen") }
        }
        if let tabValues = try array(members["tabs"], "root.tabs") {
            guard members["screen"] == nil || members["screen"] == .null else {
                throw fail("root", "give either 'screen' or 'tabs', not both")
            }
            guard !tabValues.isEmpty else { throw fail("root.tabs", "must list at least one tab") }
            var tabs: [AppDescription.Tab] = []
            for (index, value) in tabValues.enumerated() {
                let key = "root.tabs[\(index)]"
                let tab = try object(value, key)
                let id = try requiredString(tab["id"], "\(key).id")
                guard !tabs.contains(where: { $0.id == id }) else { throw fail("\(key).id", "tab '\(id)' is listed twice") }
                let screen = try requiredString(tab["screen"], "\(key).screen")
                try usable(screen, "\(key).screen")
                tabs.append(AppDescription.Tab(id: id, screen: screen))
            }
            return .tabs(tabs)
        }
        let screen = try requiredString(members["screen"], "root.screen")
        try usable(screen, "root.screen")
        return .screen(screen)
    }

    func routes(_ value: JSONValue?, screens: [String: AppDescription.Screen], all: [String: JSONValue], root: AppDescription.Root)
        throws(AppDescriptionError) -> [AppDescription.Route]
    {
        var routes: [AppDescription.Route] = []
        var patterns: [String: Int] = [:]
        for (index, routeValue) in (try array(value, "routes") ?? []).enumerated() {
            let key = "routes[\(index)]"
            let members = try object(routeValue, key)
            let path = try requiredString(members["path"], "\(key).path")
            guard path.hasPrefix("/") else { throw fail("\(key).path", "'\(path)' must start with '/'") }
            let segments = path.split(separator: "/").map(String.init)
            var pathParams: Set<String> = []
            for segment in segments where segment.hasPrefix(":") {
                let name = String(segment.dropFirst())
                guard !name.isEmpty else { throw fail("\(key).path", "'\(path)' has a parameter without a name") }
                guard pathParams.insert(name).inserted else { throw fail("\(key).path", "'\(path)' names ':\(name)' twice") }
            }
            let pattern = "/" + segments.map { $0.hasPrefix(":") ? ":" : $0 }.joined(separator: "/")
            if let earlier = patterns[pattern] {
                throw fail("\(key).path", "'\(path)' matches the same paths as routes[\(earlier)]")
            }
            patterns[pattern] = index
            var tab: String?
            if let tabID = try string(members["tab"], "\(key).tab") {
                guard case .tabs(let tabs) = root else { throw fail("\(key).tab", "the app has no tabs") }
                guard tabs.contains(where: { $0.id == tabID }) else { throw fail("\(key).tab", "'\(tabID)' is not a tab of root.tabs") }
                tab = tabID
            }
            guard let stepValues = try array(members["steps"], "\(key).steps") else { throw fail("\(key).steps", "is required") }
            var steps: [AppDescription.Step] = []
            for (stepIndex, stepValue) in stepValues.enumerated() {
                steps.append(try step(stepValue, "\(key).steps[\(stepIndex)]", pathParams: pathParams, all: all))
            }
            routes.append(AppDescription.Route(path: path, segments: segments, steps: steps, tab: tab))
        }
        return routes
    }

    func step(_ value: JSONValue, _ key: String, pathParams: Set<String>, all: [String: JSONValue]) throws(AppDescriptionError)
        -> AppDescription.Step
    {
        let members = try object(value, key)
        let screen = try requiredString(members["screen"], "\(key).screen")
        try declared(screen, all, "\(key).screen")
        let params = try object(members["params"] ?? .object([:]), "\(key).params")
        for (param, value) in params {
            if let text = value.stringValue, text.hasPrefix(":"), !pathParams.contains(String(text.dropFirst())) {
                throw fail("\(key).params.\(param)", "'\(text)' is not a parameter of the route's path")
            }
        }
        return AppDescription.Step(
            screen: screen, params: params,
            presentation: try enumValue(members["presentation"], "\(key).presentation", as: AppDescription.PresentationMode.self),
            style: try enumValue(members["style"], "\(key).style", as: ModalStyle.self),
            embedInNavigation: try bool(members["embedInNavigation"], "\(key).embedInNavigation"))
    }
}
