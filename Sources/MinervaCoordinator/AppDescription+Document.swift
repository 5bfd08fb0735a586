import MinervaJSON

extension AppDescription {
    /// The app's canonical document: what `GET /v1/app` answers, and an app file that
    /// ``parse(_:source:)`` reads back to an equal description (stores keep it under the app's
    /// version). Screens by name, routes in file order, every default written out.
    /// - Parameter version: written first when given (the answer of `GET /v1/app`).
    public func document(version: String?) -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + screens.count * 160 + routes.count * 160)
        writer.beginObject()
        if let version { writer.field("version", version) }
        writer.field("name", name)
        writer.field("scheme", scheme)
        writer.key("root")
        writer.beginObject()
        switch root {
        case .screen(let screen):
            writer.field("screen", screen)
        case .tabs(let tabs):
            writer.key("tabs")
            writer.beginArray()
            for tab in tabs {
                writer.beginObject()
                writer.field("id", tab.id)
                writer.field("screen", tab.screen)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
        writer.key("screens")
        writer.beginObject()
        for name in screenOrder {
            writer.key(string: name)
            Self.writeScreen(screens[name]!, into: &writer)
        }
        writer.endObject()
        writer.key("routes")
        writer.beginArray()
        for route in routes {
            writer.beginObject()
            writer.field("path", route.path)
            if let tab = route.tab { writer.field("tab", tab) }
            writer.key("steps")
            writer.beginArray()
            for step in route.steps { step.write(into: &writer) }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    private static func writeScreen(_ screen: AppDescription.Screen, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("presentation", screen.presentation.rawValue)
        if let style = screen.style { writer.field("style", style.rawValue) }
        if let embed = screen.embedInNavigation { writer.field("embedInNavigation", embed) }
        writer.key("params")
        writer.beginArray()
        for param in screen.params { writer.string(param) }
        writer.endArray()
        if let title = screen.title { writer.field("title", title) }
        if let guarded = screen.guarded {
            writer.field("requires", guarded.flag)
            writer.key("otherwise")
            writer.beginObject()
            writer.field("screen", guarded.otherwise)
            writer.key("params")
            writer.value(.object(guarded.otherwiseParams))
            writer.endObject()
        }
        writer.endObject()
    }
}
