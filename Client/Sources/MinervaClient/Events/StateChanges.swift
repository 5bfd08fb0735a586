/// The selected tab changed.
public struct TabSelected: EventChange {
    /// `tabSelected`.
    public static let type = "tabSelected"
    /// The selected tab's id.
    public var tab: String

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(tab: String) {
        self.tab = tab
    }
}

/// The session's flags changed: the whole new set, sorted.
public struct FlagsChanged: EventChange {
    /// `flagsChanged`.
    public static let type = "flagsChanged"
    /// All the flags now.
    public var flags: [String]

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(flags: [String]) {
        self.flags = flags
    }
}

/// A guarded target or a deep link was kept, replaced or dropped.
public struct PendingChanged: EventChange {
    /// `pendingChanged`.
    public static let type = "pendingChanged"
    /// What waits now; nil when nothing does.
    public var pending: Pending?

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(pending: Pending? = nil) {
        self.pending = pending
    }
}

/// A set-root kept nodes that were on the stack and moved them; `stack` is the navigator's
/// whole stack now, bottom first.
public struct StackChanged: EventChange {
    /// `stackChanged`.
    public static let type = "stackChanged"
    /// The navigator.
    public var navigator: String
    /// Its whole stack now, bottom first.
    public var stack: [String]

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(navigator: String, stack: [String]) {
        self.navigator = navigator
        self.stack = stack
    }
}

/// The device's horizontal size class changed.
public struct SizeClassChanged: EventChange {
    /// `sizeClassChanged`.
    public static let type = "sizeClassChanged"
    /// `compact` or `regular`.
    public var horizontal: SizeClass

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(horizontal: SizeClass) {
        self.horizontal = horizontal
    }
}

/// The deep links a screen holds changed (``SessionState/heldLinks``): one arrived while the focus
/// held links, or they applied (their events come before this one) or were dropped.
public struct HeldLinksChanged: EventChange {
    /// `heldLinksChanged`.
    public static let type = "heldLinksChanged"
    /// Every link still held, oldest first.
    public var links: [String]

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(links: [String]) {
        self.links = links
    }
}

/// An overlay flow came over the session's flow, or left (``SessionState/overlay``).
public struct OverlayChanged: EventChange {
    /// `overlayChanged`.
    public static let type = "overlayChanged"
    /// The overlay shown now; nil when it left.
    public var overlay: String?

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(overlay: String?) {
        self.overlay = overlay
    }

    private enum CodingKeys: String, CodingKey {
        case overlay
    }

    /// Writes `overlay` as the server does: `null` when the overlay left.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(overlay, forKey: .overlay)
    }
}

/// The columns a regular-width split view shows changed (``SessionState/displayMode``).
public struct DisplayModeChanged: EventChange {
    /// `displayModeChanged`.
    public static let type = "displayModeChanged"
    /// The mode now.
    public var mode: SplitDisplayMode

    /// Creates the change (the client reads them from the server; tests and previews make them).
    public init(mode: SplitDisplayMode) {
        self.mode = mode
    }
}
