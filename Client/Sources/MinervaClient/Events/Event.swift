/// One entry of a session's change log. Every change appends a block of events, all with the
/// version it made; the last carries `isFinal` and the focus after the block.
///
/// The set of event types is open: a type that a newer server adds arrives as ``unknown(_:)``
/// with its JSON, so an app built today keeps following a session after the server grows.
///
/// ```swift
/// switch event {
/// case .added(let added): show(added.node, on: added.navigator)
/// case .removed(let removed): hide(removed.node, animated: removed.reason != .restore)
/// default: break
/// }
/// ```
public enum Event: Codable, Hashable, Sendable {
    /// A node came on screen.
    case added(Logged<NodeAdded>)
    /// A node left the screen and the tree.
    case removed(Logged<NodeRemoved>)
    /// A flow ended with a result for its parent.
    case finished(Logged<FlowFinished>)
    /// The session switched root flows.
    case flowChanged(Logged<FlowChanged>)
    /// An overlay flow came over the session's flow, or left.
    case overlayChanged(Logged<OverlayChanged>)
    /// A set-root moved nodes it kept.
    case stackChanged(Logged<StackChanged>)
    /// A node's params changed in place.
    case paramsChanged(Logged<ParamsChanged>)
    /// The selected tab changed.
    case tabSelected(Logged<TabSelected>)
    /// The device's horizontal size class changed.
    case sizeClassChanged(Logged<SizeClassChanged>)
    /// The columns a regular-width split view shows changed.
    case displayModeChanged(Logged<DisplayModeChanged>)
    /// The user moved a sheet to another detent.
    case presentationChanged(Logged<PresentationChanged>)
    /// The session's flags changed.
    case flagsChanged(Logged<FlagsChanged>)
    /// A pending target or link was kept, replaced or dropped.
    case pendingChanged(Logged<PendingChanged>)
    /// The deep links a screen holds changed.
    case heldLinksChanged(Logged<HeldLinksChanged>)
    /// A node's UI state was replaced.
    case uiChanged(Logged<UIChanged>)
    /// The parent's client took a flow's result.
    case resultConsumed(Logged<ResultConsumed>)
    /// A node's list was replaced.
    case listChanged(Logged<ListChanged>)
    /// The session moved to another version of the app description.
    case appChanged(Logged<AppChanged>)
    /// The session was exposed to an experiment.
    case exposed(Logged<Exposed>)
    /// A device's numbered change changed nothing.
    case unchanged(Logged<Unchanged>)
    /// An event of a type this client does not know.
    case unknown(UnknownEvent)

    private enum CodingKeys: String, CodingKey {
        case type
    }

    /// Reads an event by its `type`; a type this client does not know becomes ``unknown(_:)``.
    public init(from decoder: any Decoder) throws {
        switch try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type) {
        case NodeAdded.type: self = .added(try Logged(from: decoder))
        case NodeRemoved.type: self = .removed(try Logged(from: decoder))
        case FlowFinished.type: self = .finished(try Logged(from: decoder))
        case FlowChanged.type: self = .flowChanged(try Logged(from: decoder))
        case OverlayChanged.type: self = .overlayChanged(try Logged(from: decoder))
        case StackChanged.type: self = .stackChanged(try Logged(from: decoder))
        case ParamsChanged.type: self = .paramsChanged(try Logged(from: decoder))
        case TabSelected.type: self = .tabSelected(try Logged(from: decoder))
        case SizeClassChanged.type: self = .sizeClassChanged(try Logged(from: decoder))
        case DisplayModeChanged.type: self = .displayModeChanged(try Logged(from: decoder))
        case PresentationChanged.type: self = .presentationChanged(try Logged(from: decoder))
        case FlagsChanged.type: self = .flagsChanged(try Logged(from: decoder))
        case PendingChanged.type: self = .pendingChanged(try Logged(from: decoder))
        case HeldLinksChanged.type: self = .heldLinksChanged(try Logged(from: decoder))
        case UIChanged.type: self = .uiChanged(try Logged(from: decoder))
        case ResultConsumed.type: self = .resultConsumed(try Logged(from: decoder))
        case ListChanged.type: self = .listChanged(try Logged(from: decoder))
        case AppChanged.type: self = .appChanged(try Logged(from: decoder))
        case Exposed.type: self = .exposed(try Logged(from: decoder))
        case Unchanged.type: self = .unchanged(try Logged(from: decoder))
        default: self = .unknown(try UnknownEvent(from: decoder))
        }
    }

    /// Writes the event as the server wrote it.
    public func encode(to encoder: any Encoder) throws {
        try (payload as any Encodable).encode(to: encoder)
    }

    /// The event's own value: a `Logged` change, or the unknown event.
    private var payload: any Encodable & Sendable {
        switch self {
        case .added(let event): event
        case .removed(let event): event
        case .finished(let event): event
        case .flowChanged(let event): event
        case .overlayChanged(let event): event
        case .stackChanged(let event): event
        case .paramsChanged(let event): event
        case .tabSelected(let event): event
        case .sizeClassChanged(let event): event
        case .displayModeChanged(let event): event
        case .presentationChanged(let event): event
        case .flagsChanged(let event): event
        case .pendingChanged(let event): event
        case .heldLinksChanged(let event): event
        case .uiChanged(let event): event
        case .resultConsumed(let event): event
        case .listChanged(let event): event
        case .appChanged(let event): event
        case .exposed(let event): event
        case .unchanged(let event): event
        case .unknown(let event): event
        }
    }

    /// The fields every event carries: `seq`, `version`, `at`, `final` and `focus`.
    public var fields: EventFields {
        switch self {
        case .added(let event): event.fields
        case .removed(let event): event.fields
        case .finished(let event): event.fields
        case .flowChanged(let event): event.fields
        case .overlayChanged(let event): event.fields
        case .stackChanged(let event): event.fields
        case .paramsChanged(let event): event.fields
        case .tabSelected(let event): event.fields
        case .sizeClassChanged(let event): event.fields
        case .displayModeChanged(let event): event.fields
        case .presentationChanged(let event): event.fields
        case .flagsChanged(let event): event.fields
        case .pendingChanged(let event): event.fields
        case .heldLinksChanged(let event): event.fields
        case .uiChanged(let event): event.fields
        case .resultConsumed(let event): event.fields
        case .listChanged(let event): event.fields
        case .appChanged(let event): event.fields
        case .exposed(let event): event.fields
        case .unchanged(let event): event.fields
        case .unknown(let event): event.fields
        }
    }

    /// The event's number in the session's change log: 1, 2, 3, … without gaps.
    public var seq: Int { fields.seq }
    /// The session version the change that made this event produced.
    public var version: Int { fields.version }
    /// Whether this is the last event of its change's block.
    public var isFinal: Bool { fields.isFinal }
    /// On the last event of a block: the focus after it (the state's `focus`).
    public var focus: String? { fields.focus }
}
