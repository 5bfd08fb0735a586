import MinervaCoordinator
import MinervaJSON
import MinervaModel
import MinervaSessions

extension SessionEvent.Change {
    /// Writes the change's own members into an open event object, as the API shows them
    /// (`node`, `screen`, `reason`, …); the caller writes the event's number, version, time and
    /// type around them. (The store writes events with code of its own, `writeRecordFields`.)
    func writeWireFields(into writer: inout JSONWriter) {
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
            added.presentation.write(into: &writer)
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
            writer.beginArray()
            for flag in flags { writer.string(flag) }
            writer.endArray()
        case .navigation(.pendingChanged(let pending)):
            writer.key("pending")
            StateDocument.write(pending, into: &writer)
        case .navigation(.flowChanged(let change)):
            writer.field("from", change.from)
            writer.field("to", change.to)
            writer.key("navigators")
            writer.beginArray()
            for base in change.bases { writer.string(base.id.rawValue) }
            writer.endArray()
        case .navigation(.paramsChanged(let node, let params)):
            writer.field("node", node)
            writer.key("params")
            writer.value(.object(params))
        case .navigation(.stackChanged(let navigator, let stack)):
            writer.field("navigator", navigator.rawValue)
            writer.key("stack")
            writer.beginArray()
            for node in stack { writer.string(node.description) }
            writer.endArray()
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
