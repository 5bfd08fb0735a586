import MinervaJSON

extension AppDescription {
    /// Reads and validates an app description from its JSON text.
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
        var reader = Reader(source: source)
        return try reader.app(document)
    }
}

private struct Reader {
    let source: String

    func fail(_ key: String, _ message: String) -> AppDescriptionError {
        AppDescriptionError(source: source, key: key, message: message)
    }

    func object(_ value: JSONValue?, _ key: String) throws(AppDescriptionError) -> [String: JSONValue] {
        guard let value else { throw fail(key, "is required") }
        guard let members = value.objectValue else { throw fail(key, "must be an object, not \(value.typeName)") }
        return members
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

    func enumValue<T: RawRepresentable & CaseIterable>(_ value: JSONValue?, _ key: String, as: T.Type) throws(AppDescriptionError) -> T?
    where T.RawValue == String {
        guard let text = try string(value, key) else { return nil }
        guard let result = T(rawValue: text) else {
            let allowed = T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw fail(key, "'\(text)' is not one of \(allowed)")
        }
        return result
    }

    mutating func app(_ document: JSONValue) throws(AppDescriptionError) -> AppDescription {
        let top = try object(document, "")
        let name = try string(top["name"], "name") ?? "app"
        let scheme = try string(top["scheme"], "scheme")
        let screensObject = try object(top["screens"], "screens")
        guard !screensObject.isEmpty else { throw fail("screens", "must declare at least one screen") }
        var screens: [(String, AppDescription.Screen)] = []
        for screenName in screensObject.keys.sorted() {
            screens.append((screenName, try screen(screensObject[screenName]!, "screens.\(screenName)")))
        }
        let root = try object(top["root"], "root")
        if root["tabs"] != nil, root["tabs"] != .null {
            throw fail("root.tabs", "tab layouts are not supported by this server version; use root.screen")
        }
        let rootScreen = try requiredString(root["screen"], "root.screen")
        guard screensObject[rootScreen] != nil else {
            throw fail("root.screen", "'\(rootScreen)' is not declared in screens")
        }
        if let rootEntry = screens.first(where: { $0.0 == rootScreen })?.1, !rootEntry.params.isEmpty {
            throw fail("root.screen", "'\(rootScreen)' requires params and cannot be the root screen")
        }
        return AppDescription(name: name, scheme: scheme, rootScreen: rootScreen, screens: screens)
    }

    func screen(_ value: JSONValue, _ key: String) throws(AppDescriptionError) -> AppDescription.Screen {
        let members = try object(value, key)
        let presentation = try enumValue(members["presentation"], "\(key).presentation", as: AppDescription.PresentationMode.self) ?? .push
        let style = try enumValue(members["style"], "\(key).style", as: ModalStyle.self)
        var embed: Bool?
        if let flag = members["embedInNavigation"], flag != .null {
            guard let bool = flag.boolValue else { throw fail("\(key).embedInNavigation", "must be a boolean, not \(flag.typeName)") }
            embed = bool
        }
        var params: [String] = []
        if let list = members["params"], list != .null {
            guard let elements = list.arrayValue else { throw fail("\(key).params", "must be an array of strings, not \(list.typeName)") }
            for (index, element) in elements.enumerated() {
                guard let param = element.stringValue, !param.isEmpty else {
                    throw fail("\(key).params[\(index)]", "must be a non-empty string")
                }
                guard !params.contains(param) else { throw fail("\(key).params[\(index)]", "'\(param)' is listed twice") }
                params.append(param)
            }
        }
        let title = try string(members["title"], "\(key).title")
        return AppDescription.Screen(presentation: presentation, style: style, embedInNavigation: embed, params: params, title: title)
    }
}
