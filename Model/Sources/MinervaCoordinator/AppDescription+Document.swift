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
        if !hosts.isEmpty {
            writer.key("hosts")
            writer.beginArray()
            for host in hosts { writer.string(host) }
            writer.endArray()
        }
        if declaresFlows {
            writeFlows(into: &writer)
        } else {
            writer.key("root")
            Self.write(root, into: &writer)
        }
        writer.key("screens")
        writer.beginObject()
        for name in screenOrder {
            guard let screen = screens[name] else { continue }
            writer.key(string: name)
            Self.writeScreen(screen, into: &writer)
        }
        writer.endObject()
        writer.key("routes")
        writer.beginArray()
        for route in routes {
            writer.beginObject()
            writer.field("path", route.path)
            if declaresFlows { writer.field("flow", route.flow) }
            if let tab = route.tab { writer.field("tab", tab) }
            writer.key("steps")
            writer.beginArray()
            for step in route.steps { step.write(into: &writer) }
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        writeExperiments(into: &writer)
        writer.endObject()
        return writer.bytes
    }

    /// `flows` (by name) and `launch` (in order).
    private func writeFlows(into writer: inout JSONWriter) {
        writer.key("flows")
        writer.beginObject()
        for name in flowOrder {
            guard let flow = flows[name] else { continue }
            writer.key(string: name)
            writer.beginObject()
            writer.key("root")
            Self.write(flow.root, into: &writer)
            if let completes = flow.completes { writer.field("completes", completes) }
            if flow.overlay { writer.field("overlay", true) }
            writer.endObject()
        }
        writer.endObject()
        writer.key("launch")
        writer.beginArray()
        for rule in launch {
            writer.beginObject()
            if let flag = rule.ifFlag { writer.field("if", flag) }
            if let flag = rule.unless { writer.field("unless", flag) }
            writer.field("flow", rule.flow)
            writer.endObject()
        }
        writer.endArray()
    }

    private static func write(_ root: Root, into writer: inout JSONWriter) {
        writer.beginObject()
        switch root {
        case .screen(let screen):
            writer.field("screen", screen)
        case .tabs(let tabs, let sidebar):
            if sidebar { writer.field("sidebar", true) }
            writer.key("tabs")
            writer.beginArray()
            for tab in tabs {
                writer.beginObject()
                writer.field("id", tab.id)
                writer.field("screen", tab.screen)
                writer.endObject()
            }
            writer.endArray()
        case .split(let split):
            writer.key("split")
            writer.beginObject()
            writer.field("columns", split.columns)
            writer.key("primary")
            writer.beginObject()
            writer.field("screen", split.primary)
            writer.endObject()
            // Only when set: a file without it keeps its document and version.
            if split.compactTop != .deepest { writer.field("compactTop", split.compactTop.rawValue) }
            writer.endObject()
        }
        writer.endObject()
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
        if let key = screen.key {
            writer.key("key")
            writer.beginArray()
            for param in key { writer.string(param) }
            writer.endArray()
        }
        if let title = screen.title { writer.field("title", title) }
        // Only when set: a file without it keeps its document and version.
        if screen.flow { writer.field("flow", true) }
        if let sheet = screen.sheet {
            writer.key("sheet")
            sheet.write(into: &writer)
        }
        if let dismissible = screen.dismissible { writer.field("dismissible", dismissible) }
        if screen.returnsResult { writer.field("result", true) }
        if screen.holdsLinks { writer.field("holdsLinks", true) }
        if let guarded = screen.guarded {
            writer.field("requires", guarded.flag)
            writer.key("otherwise")
            writer.beginObject()
            writer.field("screen", guarded.otherwise)
            writer.key("params")
            writer.value(.object(guarded.otherwiseParams))
            writer.endObject()
        }
        // Only when set: a file without it keeps its document and version.
        if let sampleList = screen.sampleList {
            writer.key("sampleList")
            sampleList.write(into: &writer)
        }
        writer.endObject()
    }
}
