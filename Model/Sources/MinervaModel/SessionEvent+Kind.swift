import MinervaCoordinator

extension SessionEvent {
    /// The closed set of event types a session's change log holds: the wire's `type`, the
    /// stored record's and the metrics' `type` label come from it, every place that handles
    /// events switches over it (or over ``Change``, which maps onto it exhaustively), so a kind
    /// added here without being handled does not compile, and tests check that the web
    /// inspector labels every kind and `openapi.yaml` documents exactly these.
    ///
    /// The order of the cases is the order events take within a block. Kinds that later
    /// releases add have their places settled here too, between the present ones:
    /// `appChanged`, `removed`, `finished`, `flowChanged`, `overlayChanged`, `added`, `stackChanged`,
    /// `paramsChanged`, `tabSelected`, `sizeClassChanged`, `displayModeChanged`, `presentationChanged`,
    /// `flagsChanged`, `pendingChanged`, `heldLinksChanged`, `uiChanged`, `resultConsumed`, `listChanged`,
    /// `exposed`, `unchanged` (which a block holds alone).
    public enum Kind: String, CaseIterable, Sendable, Comparable {
        case appChanged
        case removed
        case finished
        case flowChanged
        case overlayChanged
        case added
        case stackChanged
        case paramsChanged
        case tabSelected
        case sizeClassChanged
        case displayModeChanged
        case presentationChanged
        case flagsChanged
        case pendingChanged
        case heldLinksChanged
        case uiChanged
        case resultConsumed
        case listChanged
        case exposed
        case unchanged

        /// The kind's place in a block: earlier kinds come first (the gaps are the places of
        /// the coming kinds named above).
        public var blockRank: Int {
            switch self {
            case .appChanged: 0
            case .removed: 1
            case .finished: 2
            case .flowChanged: 3
            case .overlayChanged: 4
            case .added: 5
            case .stackChanged: 6
            case .paramsChanged: 7
            case .tabSelected: 8
            case .sizeClassChanged: 9
            case .displayModeChanged: 10
            case .presentationChanged: 11
            case .flagsChanged: 12
            case .pendingChanged: 13
            case .heldLinksChanged: 14
            case .uiChanged: 15
            case .resultConsumed: 16
            case .listChanged: 17
            case .exposed: 18
            case .unchanged: 19
            }
        }

        /// Whether `lhs` comes before `rhs` in a block.
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.blockRank < rhs.blockRank }
    }

    /// The event's kind.
    public var kind: Kind { change.kind }

    /// The wire name of the event's type (`added`, `removed`, `listChanged`, …).
    public var type: String { kind.rawValue }
}

extension SessionEvent.Change {
    /// The change's kind.
    public var kind: SessionEvent.Kind {
        switch self {
        case .listChanged: .listChanged
        case .appChanged: .appChanged
        case .exposed: .exposed
        case .unchanged: .unchanged
        case .navigation(.added): .added
        case .navigation(.removed): .removed
        case .navigation(.finished): .finished
        case .navigation(.tabSelected): .tabSelected
        case .navigation(.flagsChanged): .flagsChanged
        case .navigation(.pendingChanged): .pendingChanged
        case .navigation(.heldLinksChanged): .heldLinksChanged
        case .navigation(.stackChanged): .stackChanged
        case .navigation(.flowChanged): .flowChanged
        case .navigation(.overlayChanged): .overlayChanged
        case .navigation(.paramsChanged): .paramsChanged
        case .navigation(.sizeClassChanged): .sizeClassChanged
        case .navigation(.displayModeChanged): .displayModeChanged
        case .navigation(.presentationChanged): .presentationChanged
        case .navigation(.uiChanged): .uiChanged
        case .navigation(.resultConsumed): .resultConsumed
        }
    }
}
