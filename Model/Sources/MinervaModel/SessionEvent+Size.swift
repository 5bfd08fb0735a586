import MinervaCoordinator
import MinervaJSON

extension SessionEvent {
    /// About how many bytes an event with this change and checkpoint takes in memory (see
    /// ``approximateByteCount``).
    static func approximateByteCount(of change: Change, checkpoint: [UInt8]?) -> Int {
        let fixed = 96 + (checkpoint?.count ?? 0)
        switch change {
        case .navigation(.added(let added)): return fixed + 64 + JSONValue.object(added.params).encodedByteCount
        case .navigation(.finished(let finished)): return fixed + finished.result.encodedByteCount
        case .navigation(.flagsChanged(let flags)): return fixed + flags.reduce(0) { $0 + 16 + $1.utf8.count }
        case .navigation(.pendingChanged(.guarded(let pending))):
            return fixed + pending.steps.reduce(0) { $0 + 64 + JSONValue.object($1.params).encodedByteCount }
        case .navigation(.pendingChanged(.link(let link))): return fixed + link.url.utf8.count + link.flow.utf8.count
        case .navigation(.pendingChanged(nil)): return fixed
        case .navigation(.heldLinksChanged(let links)): return fixed + links.reduce(0) { $0 + $1.utf8.count + 3 }
        case .navigation(.flowChanged(let change)): return fixed + change.bases.count * 32
        case .navigation(.overlayChanged(let overlay)): return fixed + (overlay?.utf8.count ?? 0)
        case .navigation(.paramsChanged(_, let params)): return fixed + JSONValue.object(params).encodedByteCount
        case .navigation(.stackChanged(_, let stack)): return fixed + stack.count * 8
        case .navigation(.uiChanged(_, let ui)): return fixed + JSONValue.object(ui).encodedByteCount
        case .navigation(.presentationChanged(_, let selected, _)): return fixed + (selected?.utf8.count ?? 0)
        case .navigation(.sizeClassChanged), .navigation(.displayModeChanged): return fixed
        case .navigation(.resultConsumed(_, let screen)): return fixed + screen.utf8.count
        case .appChanged(let from, let to): return fixed + from.utf8.count + to.utf8.count
        case .exposed(let experiment, let variant): return fixed + experiment.utf8.count + variant.utf8.count
        case .navigation(.removed), .navigation(.tabSelected), .listChanged, .unchanged: return fixed
        }
    }
}
