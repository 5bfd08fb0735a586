public import MinervaJSON
import MinervaCoordinator

extension SessionEvent {
    /// How an event's members are written: as the API shows them, or as a store keeps them.
    public enum Form: Sendable {
        /// As the API shows them: a presentation as its kind and style, a pending target as the
        /// state document shows it, a flow switch's base navigators by id.
        case wire
        /// As a store keeps them: what a replay needs that the API does not show (a base
        /// navigator's root kind), in the snapshot's own names.
        case record
    }
}

extension SessionEvent {
    /// Writes the event as the API shows it: `{"seq", "version", "at", "type", …its fields,
    /// "final"?, "focus"?, "nextNode"?, "nextNavigator"?, "device"?, "deviceSeq"?}`, `at` as an RFC 3339 timestamp; read back with ``init(wire:app:)``.
    public func writeWire(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("seq", seq)
        writer.field("version", version)
        writer.field("at", Timestamp.rfc3339(milliseconds: at))
        writer.field("type", type)
        change.writeFields(into: &writer, form: .wire)
        if isFinal { writer.field("final", true) }
        if let focus { writer.field("focus", focus) }
        if let counters { counters.writeFields(into: &writer) }
        if let device { device.writeFields(into: &writer) }
        writer.endObject()
    }
}

extension SessionEvent.Change {
    /// Writes the change's own members (`node`, `screen`, `reason`, …) into an open event
    /// object, in `form`; the caller writes the event's number, version, time and type around them.
    public func writeFields(into writer: inout JSONWriter, form: SessionEvent.Form) {
        switch self {
        case .listChanged(let node, let list, let from):
            writer.field("node", node)
            writer.field("list", list)
            writer.field("from", from)
        case .appChanged(let from, let to):
            writer.field("from", from)
            writer.field("to", to)
        case .exposed(let experiment, let variant):
            writer.field("experiment", experiment)
            writer.field("variant", variant)
        case .unchanged:
            break
        case .navigation(.added(let added)):
            writer.field("node", added.node)
            writer.field("screen", added.screen)
            writer.key("params")
            writer.value(.object(added.params))
            writer.field("parent", added.parent)
            writer.field("navigator", added.navigator.rawValue)
            writer.key("presentation")
            switch form {
            case .wire: added.presentation.write(into: &writer)
            case .record: added.presentation.writeSnapshot(into: &writer)
            }
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
            switch (form, pending) {
            case (.wire, _): StateDocument.write(pending, into: &writer)
            case (.record, let pending?): pending.writeSnapshot(into: &writer)
            case (.record, nil): writer.null()
            }
        case .navigation(.heldLinksChanged(let links)):
            writer.key("links")
            writer.value(.array(links.map(JSONValue.string)))
        case .navigation(.flowChanged(let change)):
            writer.field("from", change.from)
            writer.field("to", change.to)
            writer.key(form == .wire ? "navigators" : "bases")
            writer.beginArray()
            for base in change.bases {
                switch form {
                case .wire:
                    writer.string(base.id.rawValue)
                case .record:
                    writer.beginObject()
                    writer.field("id", base.id.rawValue)
                    writer.field("rootKind", base.rootKind.rawValue)
                    writer.endObject()
                }
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
        case .navigation(.displayModeChanged(let mode)):
            writer.field("mode", mode.rawValue)
        case .navigation(.overlayChanged(let overlay)):
            writer.field("overlay", overlay)
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
