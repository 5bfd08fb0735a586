/// How a node came on screen: its kind, and for a presented node its modal style and level.
public struct Presentation: Codable, Hashable, Sendable {
    /// `app`, `root`, `push`, `present`, `tab`, `detail`, `supplementary` or `overlay`.
    public var kind: PresentationKind
    /// A presented node's modal style.
    public var style: ModalStyle?
    /// A presented node's level: `window` (over the tab bar and every column) or `context`.
    public var level: PresentationLevel?

    /// A presentation.
    public init(kind: PresentationKind, style: ModalStyle? = nil, level: PresentationLevel? = nil) {
        self.kind = kind
        self.style = style
        self.level = level
    }
}

/// A sheet's detents (`UISheetPresentationController`), the one shown, its grabber and the
/// largest detent that leaves what is below undimmed.
public struct Sheet: Codable, Hashable, Sendable {
    /// The detents, smallest first as the client lists them.
    public var detents: [Detent]
    /// The id of the detent shown; the first when nil.
    public var selected: String?
    /// Whether the sheet shows a grabber.
    public var grabber: Bool?
    /// The id of the largest detent that leaves what is below undimmed.
    public var undimmedUpTo: String?

    /// A sheet.
    public init(detents: [Detent], selected: String? = nil, grabber: Bool? = nil, undimmedUpTo: String? = nil) {
        self.detents = detents
        self.selected = selected
        self.grabber = grabber
        self.undimmedUpTo = undimmedUpTo
    }
}

/// A sheet's detent: a system one (`medium`, `large`) or one of the client's own height.
public enum Detent: Codable, Hashable, Sendable {
    /// `medium` or `large`.
    case system(String)
    /// A detent of its own: an id and a height in points.
    case custom(id: String, height: Double)

    /// UIKit's `.medium()`.
    public static let medium = Detent.system("medium")
    /// UIKit's `.large()`.
    public static let large = Detent.system("large")

    /// The detent's identifier: the system detent's name or the custom detent's id.
    public var id: String {
        switch self {
        case .system(let name): name
        case .custom(let id, _): id
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, height
    }

    /// Reads a system detent's name or a custom detent's `{"id", "height"}`.
    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = .system(name)
        } else {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self = .custom(id: try container.decode(String.self, forKey: .id), height: try container.decode(Double.self, forKey: .height))
        }
    }

    /// Writes the detent as the server reads it.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .system(let name):
            var container = encoder.singleValueContainer()
            try container.encode(name)
        case .custom(let id, let height):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(height, forKey: .height)
        }
    }
}

/// Where a popover points, opaque to the server: a list cell's id, or a named element and its
/// rect (`[x, y, width, height]`).
public struct Anchor: Codable, Hashable, Sendable {
    /// A list cell's id.
    public var item: String?
    /// A named element.
    public var element: String?
    /// The element's rect: x, y, width, height.
    public var rect: [Double]?

    /// An anchor on a list cell.
    public init(item: String) {
        self.item = item
    }

    /// An anchor on a named element, with its rect.
    public init(element: String, rect: [Double]? = nil) {
        self.element = element
        self.rect = rect
    }
}
