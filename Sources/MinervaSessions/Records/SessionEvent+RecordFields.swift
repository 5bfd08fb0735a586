import MinervaCoordinator
import MinervaJSON
import MinervaModel

extension SessionEvent.Change {
    /// Writes the change's members into an open event record, as the store names them.
    func writeRecordFields(into writer: inout JSONWriter) {
        switch self {
        case .listChanged(let node, let list, let from):
            writer.field("node", node)
            writer.field("list", list)
            writer.field("from", from)
        case .appChanged(let from, let to):
            writer.field("from", from)
            writer.field("to", to)
        case .navigation(.added(let added)):
            writer.field("node", added.node)
            writer.field("screen", added.screen)
            writer.key("params")
            writer.value(.object(added.params))
            writer.field("parent", added.parent)
            writer.field("navigator", added.navigator.rawValue)
            writer.key("presentation")
            added.presentation.writeSnapshot(into: &writer)
            if let presentedBy = added.presentedBy { writer.field("presentedBy", presentedBy.rawValue) }
            if let embedded = added.embedded { writer.field("embedded", embedded) }
            if let title = added.title { writer.field("title", title) }
            added.settings?.writeMembers(into: &writer)
        case .navigation(.removed(let removed)):
            writer.field("node", removed.node)
            writer.field("screen", removed.screen)
            writer.field("reason", removed.reason.rawValue)
            writer.field("navigator", removed.navigator.rawValue)
        case .navigation(.finished(let finished)):
            writer.field("node", finished.node)
            writer.field("screen", finished.screen)
            writer.field("parent", finished.parent)
            writer.key("result")
            writer.value(finished.result)
            writer.field("held", finished.held)
        case .navigation(.tabSelected(let tab)):
            writer.field("tab", tab)
        case .navigation(.flagsChanged(let flags)):
            writer.key("flags")
            writer.value(.array(flags.map(JSONValue.string)))
        case .navigation(.pendingChanged(let pending)):
            writer.key("pending")
            if let pending { pending.writeSnapshot(into: &writer) } else { writer.null() }
        case .navigation(.flowChanged(let change)):
            writer.field("from", change.from)
            writer.field("to", change.to)
            writer.key("bases")
            writer.beginArray()
            for base in change.bases {
                writer.beginObject()
                writer.field("id", base.id.rawValue)
                writer.field("rootKind", base.rootKind.rawValue)
                writer.endObject()
            }
            writer.endArray()
        case .navigation(.paramsChanged(let node, let params)):
            writer.field("node", node)
            writer.key("params")
            writer.value(.object(params))
        case .navigation(.stackChanged(let navigator, let stack)):
            writer.field("navigator", navigator.rawValue)
            writer.key("stack")
            writer.value(.array(stack.map { .string($0.description) }))
        case .navigation(.sizeClassChanged(let horizontal)):
            writer.field("horizontal", horizontal.rawValue)
        case .navigation(.presentationChanged(let node, let selected, let dismissible)):
            writer.field("node", node)
            if let selected { writer.field("selected", selected) }
            if let dismissible { writer.field("dismissible", dismissible) }
        case .navigation(.uiChanged(let node, let ui)):
            writer.field("node", node)
            writer.key("ui")
            writer.value(.object(ui))
        case .navigation(.resultConsumed(let node, let screen)):
            writer.field("node", node)
            writer.field("screen", screen)
        }
    }
}
