extension SessionEvent {
    /// The fields every event carries: `seq`, `version`, `at` and `final`.
    public var fields: Components.Schemas.EventFields {
        switch self {
        case .added(let event): event.value1
        case .removed(let event): event.value1
        case .finished(let event): event.value1
        case .listChanged(let event): event.value1
        case .tabSelected(let event): event.value1
        case .flagsChanged(let event): event.value1
        case .pendingChanged(let event): event.value1
        case .stackChanged(let event): event.value1
        case .appChanged(let event): event.value1
        case .flowChanged(let event): event.value1
        case .paramsChanged(let event): event.value1
        case .sizeClassChanged(let event): event.value1
        case .presentationChanged(let event): event.value1
        case .uiChanged(let event): event.value1
        case .resultConsumed(let event): event.value1
        case .unknown(let event): event.fields
        }
    }

    /// The event's number in the session's change log: 1, 2, 3, … without gaps.
    public var seq: Int { fields.seq }

    /// The session version that the change which made this event produced.
    public var version: Int { fields.version }

    /// Whether this is the last event of its change's block.
    public var isFinal: Bool { fields.final == true }

    /// On the last event of a block: the focus after it (the state's `focus`).
    public var focus: String? { fields.focus }
}
