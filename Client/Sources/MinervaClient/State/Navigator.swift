/// A navigator: a stack of nodes (a `UINavigationController`, a tab's or a split column's), and
/// the node it presents, if any.
public struct Navigator: Codable, Hashable, Sendable, Identifiable {
    /// `v0` (the base navigator of a stack layout), `tab:<id>`, `primary`, `supplementary`,
    /// `detail`, or `v1`, `v2`, … for presented ones.
    public var id: String
    /// Node ids, bottom first; empty only for an empty split column.
    public var stack: [String]
    /// The node it presents (the root of the presented navigator), if any.
    public var presented: String?
    /// The presenting navigator; nil for a base navigator.
    public var parent: String?
    /// Whether it has a navigation stack that accepts pushes (always true for base navigators).
    public var embedded: Bool

    /// A navigator (the client reads them from the server; tests and previews make them).
    public init(id: String, stack: [String], presented: String? = nil, parent: String? = nil, embedded: Bool = true) {
        self.id = id
        self.stack = stack
        self.presented = presented
        self.parent = parent
        self.embedded = embedded
    }
}

/// A tab bar: its tabs in order, the selected one, and the form it shows in.
public struct Tabs: Codable, Hashable, Sendable {
    /// The selected tab's id.
    public var selected: String
    /// The tabs in order.
    public var items: [Tab]
    /// The form it shows in: a sidebar at regular width when the app's tabs adapt to one, else a
    /// tab bar (`nil` from a server before the form was written).
    public var form: OpenEnums.TabsForm?

    /// A tab bar.
    public init(selected: String, items: [Tab], form: OpenEnums.TabsForm? = .tabBar) {
        self.selected = selected
        self.items = items
        self.form = form
    }

    /// A tab and the base navigator that holds its stack.
    public struct Tab: Codable, Hashable, Sendable, Identifiable {
        /// The tab's id.
        public var id: String
        /// Its navigator, `tab:<id>`.
        public var navigator: String

        /// A tab.
        public init(id: String, navigator: String) {
            self.id = id
            self.navigator = navigator
        }
    }
}
