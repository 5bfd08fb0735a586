/// The app the server runs (`GET /v1/app`): its screens with their titles and params, its root
/// (or root flows and launch rules) and its deep-link routes. A client reads it once to build
/// its screens; `version` names it.
public struct AppDescription: Codable, Hashable, Sendable {
    /// The description's version: a SHA-256 hash of its canonical form.
    public var version: String
    /// The app's name.
    public var name: String
    /// The URL scheme of its deep links (`demo` for `demo://…`), if it has one.
    public var scheme: String?
    /// The hosts of its universal links, when it has some.
    public var hosts: [String]?
    /// A single-`root` app's root.
    public var root: AppRoot?
    /// An app of root flows: its flows by name.
    public var flows: [String: AppFlow]?
    /// An app of root flows: the rules that choose a session's flow by its flags, in order.
    public var launch: [LaunchRule]?
    /// Its screens by name.
    public var screens: [String: AppScreen]
    /// Its deep-link routes, in the order they are matched.
    public var routes: [Route]
    /// The experiments by key (only in `GET /v1/app`, when the app declares some).
    public var experiments: [String: AppExperiment]?
    /// In a variant's app: what it runs of each experiment that counts the session.
    public var assigned: [AppAssignment]?

    /// The root of the flow named `flow` (`main` for a single-`root` app).
    public func root(of flow: String) -> AppRoot? {
        flows?[flow]?.root ?? (flow == "main" ? root : nil)
    }
}

/// What a flow (or a single-`root` app) shows at its base: one screen, a tab bar, or a split view.
public struct AppRoot: Codable, Hashable, Sendable {
    /// One screen on a stack.
    public var screen: String?
    /// A tab bar's tabs, in order.
    public var tabs: [Tab]?
    /// Whether the tab bar shows as a sidebar at regular width (`Tabs/form`); `nil`: it does not.
    public var sidebar: Bool?
    /// A split view.
    public var split: Split?

    /// A tab and its root screen.
    public struct Tab: Codable, Hashable, Sendable, Identifiable {
        /// The tab's id.
        public var id: String
        /// The screen at the root of its stack.
        public var screen: String
    }

    /// A split view: its columns, its primary column's screen, and what a compact one shows.
    public struct Split: Codable, Hashable, Sendable {
        /// 2 (`primary`, `detail`) or 3 (with `supplementary`).
        public var columns: Int
        /// The primary column's root.
        public var primary: Column
        /// Which column a compact split view shows: `deepest` (nil) or `primary`.
        public var compactTop: String?

        /// A column's root screen.
        public struct Column: Codable, Hashable, Sendable {
            /// The screen.
            public var screen: String
        }
    }
}

/// A root flow: what it shows, and the flag a `finish` of one of its roots sets.
public struct AppFlow: Codable, Hashable, Sendable {
    /// What it shows at its base.
    public var root: AppRoot
    /// The flag a `finish` with `success` of one of its base roots sets.
    public var completes: String?
    /// `true` for a flow shown over the session's flow while its launch rule holds (a PIN lock:
    /// ``SessionState/overlay``) instead of being switched to.
    public var overlay: Bool?
}

/// A launch rule: the flow a session shows when the rule holds for its flags.
public struct LaunchRule: Codable, Hashable, Sendable {
    /// The flag the session must have.
    public var requiredFlag: String?
    /// The flag the session must not have.
    public var excludedFlag: String?
    /// The flow.
    public var flow: String

    private enum CodingKeys: String, CodingKey {
        case requiredFlag = "if"
        case excludedFlag = "unless"
        case flow
    }
}

/// A screen of the app: how it comes on screen, its params, title and settings.
public struct AppScreen: Codable, Hashable, Sendable {
    /// `push` or `present`.
    public var presentation: PresentationMode
    /// Its modal style, when presented.
    public var style: ModalStyle?
    /// Whether a presented one gets a navigation stack.
    public var embedInNavigation: Bool?
    /// The params it declares (all required).
    public var params: [String]
    /// The params that make two of its nodes the same one (all of them when nil).
    public var key: [String]?
    /// Its title.
    public var title: String?
    /// Whether its nodes start a flow of their own.
    public var flow: Bool?
    /// Its sheet, when presented as one.
    public var sheet: Sheet?
    /// `false` when the user may not swipe it away.
    public var dismissible: Bool?
    /// `true` when a flow of it that finishes, any way, leaves its result on its parent until taken.
    public var result: Bool?
    /// `true` when deep links wait while one of its nodes is the focus (``SessionState/heldLinks``).
    public var holdsLinks: Bool?
    /// The flag it needs, when guarded.
    public var requires: String?
    /// The screen shown first when the flag is missing.
    public var otherwise: Step?
    /// Cells for a client to show on a node of this screen that has no list yet, when the app
    /// file gives some: a cell whose content carries `navigate` (`{"screen", "params"}`) names
    /// the screen a tap on it shows, a param `":name"` standing for the shown node's param.
    public var sampleList: SampleList?

    /// Sample cells, in sections as ``MinervaSession/putList(_:on:)`` takes them.
    public struct SampleList: Codable, Hashable, Sendable {
        /// The sections.
        public var sections: [ListSection]
    }
}

/// A deep-link route: a path pattern and the steps it shows.
public struct Route: Codable, Hashable, Sendable {
    /// The path, with `:name` placeholders (`/users/:id`).
    public var path: String
    /// The root flow it belongs to (apps of several flows).
    public var flow: String?
    /// The tab it opens in.
    public var tab: String?
    /// The screens it shows, in order.
    public var steps: [Step]
}
