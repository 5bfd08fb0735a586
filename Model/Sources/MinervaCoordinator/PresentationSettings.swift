public import MinervaJSON

/// What an app sets on a presentation beyond its style: a sheet's detents, a popover's anchor,
/// and whether the user may swipe it away (UIKit's `UISheetPresentationController`,
/// `popoverPresentationController.sourceItem`, `isModalInPresentation`).
public struct PresentationSettings: Hashable, Sendable {
    /// The sheet's detents and the one shown, for sheet styles and popovers (their compact form).
    public var sheet: Sheet?
    /// Where a popover points: `{"item": "cell-id"}` or `{"element": "name", "rect": [x, y, w, h]}`,
    /// opaque to the server.
    public var anchor: JSONValue?
    /// `false` when the user may not swipe it away (nor back-swipe a pushed node); `nil` means true.
    public var dismissible: Bool?

    /// Creates settings.
    public init(sheet: Sheet? = nil, anchor: JSONValue? = nil, dismissible: Bool? = nil) {
        self.sheet = sheet
        self.anchor = anchor
        self.dismissible = dismissible
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { sheet == nil && anchor == nil && dismissible == nil }

    /// A sheet's detents, as `UISheetPresentationController` takes them.
    public struct Sheet: Hashable, Sendable {
        /// The heights it may rest at, smallest first as the app lists them.
        public var detents: [Detent]
        /// The detent shown (an id of ``detents``); `nil`: the first.
        public var selected: String?
        /// Whether it shows a grabber.
        public var grabber: Bool?
        /// The largest detent that leaves what lies below undimmed.
        public var undimmedUpTo: String?

        /// Creates sheet settings.
        public init(detents: [Detent], selected: String? = nil, grabber: Bool? = nil, undimmedUpTo: String? = nil) {
            self.detents = detents
            self.selected = selected
            self.grabber = grabber
            self.undimmedUpTo = undimmedUpTo
        }

        /// The detent shown: ``selected``, else the first.
        public var shown: String { selected ?? detents[0].id }

        /// What is wrong with these settings, or `nil`: no detents, a detent listed twice, an
        /// app's own detent named like a system one or without a positive height, or `selected`
        /// or `undimmedUpTo` naming a detent not listed.
        public var problem: String? {
            guard !detents.isEmpty else { return "'detents' must list at least one detent" }
            var seen: Set<String> = []
            for detent in detents {
                guard seen.insert(detent.id).inserted else { return "detent '\(detent.id)' is listed twice" }
                if detent.height != nil, detent.id == "medium" || detent.id == "large" {
                    return "'\(detent.id)' is UIKit's own detent: list it as the string \"\(detent.id)\", or name the app's detent otherwise"
                }
                if let height = detent.height, !(height > 0 && height.isFinite) {
                    return "detent '\(detent.id)' needs a positive 'height' in points"
                }
            }
            for (field, id) in [("selected", selected), ("undimmedUpTo", undimmedUpTo)] {
                if let id, !seen.contains(id) {
                    return "'\(field)' names detent \(Excerpt(id)), which 'detents' does not list (\(detents.map(\.id).joined(separator: ", ")))"
                }
            }
            return nil
        }
    }

    /// One detent: `medium`, `large`, or one of the app's own with a height in points.
    public struct Detent: Hashable, Sendable {
        /// `medium`, `large`, or the app's id.
        public let id: String
        /// The height of the app's own detent; `nil` for a system one.
        public let height: Double?

        /// A system detent.
        public static let medium = Detent(id: "medium", height: nil)
        /// A system detent.
        public static let large = Detent(id: "large", height: nil)

        /// Creates a detent.
        public init(id: String, height: Double?) {
            self.id = id
            self.height = height
        }
    }
}

extension ModalStyle {
    /// Whether UIKit shows this style as a sheet (a popover is one in compact width): what takes
    /// sheet settings.
    public var takesSheet: Bool {
        switch self {
        case .automatic, .pageSheet, .formSheet, .popover: true
        case .fullScreen, .overFullScreen, .currentContext, .overCurrentContext, .custom: false
        }
    }
}
