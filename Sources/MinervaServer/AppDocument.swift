import MinervaCoordinator
import MinervaJSON

/// Writes the app description in use, for `GET /v1/app`.
enum AppDocument {
    static func encode(_ app: AppDescription) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + app.screens.count * 128)
        writer.beginObject()
        writer.field("name", app.name)
        writer.field("scheme", app.scheme)
        writer.key("root")
        writer.beginObject()
        writer.field("screen", app.rootScreen)
        writer.endObject()
        writer.key("screens")
        writer.beginObject()
        for name in app.screenOrder {
            let screen = app.screens[name]!
            writer.key(name)
            writer.beginObject()
            writer.field("presentation", screen.presentation.rawValue)
            if let style = screen.style { writer.field("style", style.rawValue) }
            if let embed = screen.embedInNavigation { writer.field("embedInNavigation", embed) }
            writer.key("params")
            writer.beginArray()
            for param in screen.params { writer.string(param) }
            writer.endArray()
            if let title = screen.title { writer.field("title", title) }
            writer.endObject()
        }
        writer.endObject()
        writer.key("routes")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
