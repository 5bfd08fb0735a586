import MinervaJSON

/// Reads a screen's `sampleList` once every screen is read, refusing what `PUT …/list` would
/// refuse (an empty or repeated id) and a cell a tap could not follow: its `navigate` must name a
/// declared screen and give the params it requires, as constants or as `":name"`, a param of the
/// screen the list is shown on.
enum SampleListReader {
    static let listKeys: JSONKeys = ["sections"]
    static let sectionKeys: JSONKeys = ["id", "items"]
    static let itemKeys: JSONKeys = ["id", "kind", "content"]
    static let targetKeys: JSONKeys = ["screen", "params"]

    /// The sample list of the screen `screen` reads, `nil` when it has none.
    /// - Parameter screens: every screen of the app, read already.
    static func read(_ screen: JSONObjectReader, screens: [String: AppDescription.Screen]) throws(JSONReadError) -> AppDescription.SampleList? {
        let shownParams = try screen.optionalStrings("params") ?? []
        return try screen.optionalObject("sampleList", keys: listKeys) { list throws(JSONReadError) in
            var sectionIDs: Set<String> = []
            var itemIDs: Set<String> = []
            let sections = try list.objects("sections", keys: sectionKeys) { section throws(JSONReadError) in
                let id = try section.string("id")
                guard !id.isEmpty else { throw section.error("must not be empty", at: "id") }
                guard sectionIDs.insert(id).inserted else {
                    throw section.error("'\(id)' is the id of an earlier section: section ids are unique in a list", at: "id")
                }
                let items = try section.objects("items", keys: itemKeys) { item throws(JSONReadError) in
                    let id = try item.string("id")
                    guard !id.isEmpty else { throw item.error("must not be empty", at: "id") }
                    guard itemIDs.insert(id).inserted else {
                        throw item.error("'\(id)' is the id of an earlier cell: cell ids are unique in the whole list", at: "id")
                    }
                    let kind = try item.string("kind")
                    let content = item.value("content") ?? .null
                    if let navigate = content.objectValue?["navigate"] {
                        try check(navigate, of: item, shownParams: shownParams, screens: screens)
                    }
                    return AppDescription.SampleList.Item(id: id, kind: kind, content: content)
                }
                return AppDescription.SampleList.Section(id: id, items: items)
            }
            return AppDescription.SampleList(sections: sections)
        }
    }

    /// Checks a cell's `content.navigate`: `{"screen", "params"?}` that a tap can follow.
    private static func check(
        _ navigate: JSONValue, of item: JSONObjectReader, shownParams: [String], screens: [String: AppDescription.Screen]
    ) throws(JSONReadError) {
        guard let target = navigate.objectValue else {
            throw item.error("must be an object: {\"screen\": …, \"params\": {…}}", at: "content", "navigate")
        }
        for key in target.keys.sorted() where key != "screen" && key != "params" {
            let hint = targetKeys.nearest(to: key).map { "did you mean '\($0)'?" } ?? "the known fields are 'screen', 'params'"
            throw item.error("unknown field; \(hint)", at: "content", "navigate", .key(key))
        }
        guard let screen = target["screen"]?.stringValue, !screen.isEmpty else {
            throw item.error("must name the screen a tap navigates to", at: "content", "navigate", "screen")
        }
        guard let declared = screens[screen] else {
            let hint = JSONKeys(screens.keys.sorted()).nearest(to: screen).map { "; did you mean '\($0)'?" } ?? ""
            throw item.error("'\(screen)' is not declared in screens\(hint)", at: "content", "navigate", "screen")
        }
        let params = target["params"] ?? .null
        guard params == .null || params.objectValue != nil else {
            throw item.error("must be an object of params", at: "content", "navigate", "params")
        }
        let given = params.objectValue ?? [:]
        for required in declared.params where given[required] == nil || given[required] == .null {
            throw item.error(
                "'\(screen)' requires the param '\(required)': give it as a constant or as ':name', a param of the screen the list is shown on",
                at: "content", "navigate", "params")
        }
        for (param, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let text = value.stringValue, text.hasPrefix(":"), !shownParams.contains(String(text.dropFirst())) else { continue }
            let declaredHere = shownParams.isEmpty ? "it declares none" : "it declares \(shownParams.joined(separator: ", "))"
            throw item.error(
                "'\(text)' is not a param of the screen the list is shown on (\(declaredHere))", at: "content", "navigate", "params", .key(param))
        }
    }
}
