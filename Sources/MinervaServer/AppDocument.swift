import Crypto
import MinervaCoordinator
import MinervaJSON

/// Writes the app description in use, for `GET /v1/app`: screens with titles, root or tabs, routes.
enum AppDocument {
    /// `GET /v1/app`'s answer and the app's version: the SHA-256 of the document without its
    /// version, which is canonical (screens by name, routes in file order), so reformatting the
    /// file or reordering its keys changes nothing.
    static func encode(_ app: AppDescription) -> (document: [UInt8], version: String) {
        let version = Self.version(of: encode(app, version: nil))
        return (encode(app, version: version), version)
    }

    private static func encode(_ app: AppDescription, version: String?) -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + app.screens.count * 160 + app.routes.count * 160)
        writer.beginObject()
        if let version { writer.field("version", version) }
        writer.field("name", app.name)
        writer.field("scheme", app.scheme)
        writer.key("root")
        writer.beginObject()
        switch app.root {
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
        for name in app.screenOrder {
            writer.key(string: name)
            writeScreen(app.screens[name]!, into: &writer)
        }
        writer.endObject()
        writer.key("routes")
        writer.beginArray()
        for route in app.routes {
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

extension AppDocument {
    /// The app's version: the SHA-256 of its document, in hex, recorded with every session.
    private static func version(of document: [UInt8]) -> String {
        SHA256.hash(data: document).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
