public import MinervaJSON

/// What an app is made of: its screens, its root flows and the launch rules that choose among
/// them by the session's flags, and its deep-link routes.
///
/// Loaded from the `--app` file (or the built-in demo app) and validated once at start;
/// every operation checks the screens it is asked for against it.
public struct AppDescription: Sendable, Equatable {
    /// How a screen is shown when navigated to.
    public enum PresentationMode: String, Sendable, CaseIterable {
        case push
        case present
    }

    /// A guard: the flag a screen requires, and the flow shown instead while it is missing.
    public struct Guard: Sendable, Equatable {
        /// The session flag required (e.g. `signedIn`).
        public var flag: String
        /// The screen shown instead (e.g. `login`).
        public var otherwise: String
        /// Params for the `otherwise` screen.
        public var otherwiseParams: [String: JSONValue]
    }

    /// One entry of `screens`.
    public struct Screen: Sendable, Equatable {
        /// Whether `navigate` pushes or presents it.
        public var presentation: PresentationMode
        /// The modal style `present` uses when the request names none.
        public var style: ModalStyle?
        /// Whether `present` embeds it in a navigation stack when the request does not say.
        public var embedInNavigation: Bool?
        /// Parameters every node of this screen must carry.
        public var params: [String]
        /// A title for clients to show.
        public var title: String?
        /// The flag it requires, if guarded.
        public var guarded: Guard?
        /// The params that make two nodes of this screen the same one (a deep link keeps a node
        /// whose key params match); `nil` declares none, and every param is then the key.
        public var key: [String]?
        /// Whether its nodes start a flow of their own: one that leaves any way but `finish` while
        /// its parent stays sends the parent a `cancelled` result (presented nodes and guard flows
        /// always do).
        public var flow: Bool
        /// The detents it is presented with when its style is a sheet (a `present` may give others).
        public var sheet: PresentationSettings.Sheet?
        /// `false` when the user may not swipe it away, nor back-swipe it when pushed.
        public var dismissible: Bool?
        /// Cells for a client to show on a node of this screen that has no list yet.
        public var sampleList: SampleList?
        /// Whether it returns a result: a flow of it that finishes leaves the result on its
        /// parent until the client takes it (without, only a `finish` with a value does).
        public var returnsResult: Bool
        /// Whether deep links wait while a node of it is the focus (a transfer's confirm step):
        /// they apply, in order, once it is no longer (``CoordinatorTree/heldLinks``).
        public var holdsLinks: Bool

        /// Creates a screen entry.
        public init(
            presentation: PresentationMode = .push, style: ModalStyle? = nil, embedInNavigation: Bool? = nil,
            params: [String] = [], title: String? = nil, guarded: Guard? = nil, key: [String]? = nil, flow: Bool = false,
            sheet: PresentationSettings.Sheet? = nil, dismissible: Bool? = nil, sampleList: SampleList? = nil, returnsResult: Bool = false,
            holdsLinks: Bool = false
        ) {
            self.flow = flow
            self.holdsLinks = holdsLinks
            self.returnsResult = returnsResult
            self.sampleList = sampleList
            self.sheet = sheet
            self.dismissible = dismissible
            self.presentation = presentation
            self.style = style
            self.embedInNavigation = embedInNavigation
            self.params = params
            self.title = title
            self.guarded = guarded
            self.key = key
        }

        /// The params that identify a node of this screen: ``key``, or every declared param.
        public var identity: [String] { key ?? params }
    }

    /// A tab of a tabs app: its id and the screen at the root of its navigator.
    public struct Tab: Sendable, Equatable {
        /// The tab's id (`home`).
        public var id: String
        /// The screen at the root of its stack.
        public var screen: String
    }

    /// What a flow shows at its base.
    public enum Root: Sendable, Equatable {
        /// One screen at the root of the base navigator.
        case screen(String)
        /// A tab bar: one navigator per tab, the first selected; with `sidebar`, shown as a
        /// sidebar at regular width (UIKit's `UITabBarController` sidebar mode, SwiftUI's
        /// `sidebarAdaptable`): the same tree and stacks, another form (``CoordinatorTree/tabsForm``).
        case tabs([Tab], sidebar: Bool = false)
        /// A split view: `primary` holds its screen, `detail` starts empty.
        case split(Split)

        /// The tabs, when the root is a tab bar.
        public var tabs: [Tab]? {
            if case .tabs(let tabs, _) = self { tabs } else { nil }
        }

        /// The split view, when the root is one.
        public var split: Split? {
            if case .split(let split) = self { split } else { nil }
        }
    }

    /// A split view root.
    public struct Split: Sendable, Equatable {
        /// Which column a compact split view shows.
        public enum CompactTop: String, Sendable, CaseIterable {
            /// The deepest column that holds anything.
            case deepest
            /// Always `primary`.
            case primary
        }

        /// How many columns: 2 (`primary` and `detail`) or 3 (and `supplementary` between them).
        public var columns: Int
        /// The screen at the root of `primary`.
        public var primary: String
        /// Which column a compact split view shows.
        public var compactTop: CompactTop

        /// Creates a split root.
        public init(columns: Int = 2, primary: String, compactTop: CompactTop = .deepest) {
            self.columns = columns
            self.primary = primary
            self.compactTop = compactTop
        }
    }

    /// One step of a deep-link route: a `navigate` with params that may name path parameters.
    public struct Step: Sendable, Equatable {
        /// The screen to navigate to.
        public var screen: String
        /// Params; a string value `":name"` takes the path parameter `name`.
        public var params: [String: JSONValue]
        /// Overrides the screen's presentation.
        public var presentation: PresentationMode?
        /// Overrides the screen's modal style.
        public var style: ModalStyle?
        /// Overrides the screen's embedding.
        public var embedInNavigation: Bool?
        /// Whether a deep link replaces a node that matches this step instead of keeping it.
        public var fresh: Bool

        /// Creates a step.
        public init(
            screen: String, params: [String: JSONValue] = [:], presentation: PresentationMode? = nil, style: ModalStyle? = nil,
            embedInNavigation: Bool? = nil, fresh: Bool = false
        ) {
            self.screen = screen
            self.params = params
            self.presentation = presentation
            self.style = style
            self.embedInNavigation = embedInNavigation
            self.fresh = fresh
        }
    }

    /// A deep-link route: a path pattern and the steps that build its state.
    public struct Route: Sendable, Equatable {
        /// The pattern as written (`/users/:userId`).
        public var path: String
        /// Its segments; those starting with `:` are parameters.
        public var segments: [String]
        /// The steps, reconciled with what the flow shows (see ``CoordinatorTree/deepLink(_:)``).
        public var steps: [Step]
        /// The tab selected before the steps, in a flow with tabs.
        public var tab: String?
        /// The flow the route belongs to.
        public var flow: String
    }

    /// The app's name.
    public var name: String
    /// The URL scheme of its deep links, if any.
    public var scheme: String?
    /// The hosts of its universal links (`https://HOST/path` is the deep link `/path`), lowercased.
    public var hosts: [String]
    /// The root flows by name.
    public var flows: [String: Flow]
    /// Flow names, sorted, for stable output.
    public var flowOrder: [String]
    /// The launch rules, in order: a session's flow is the first whose rule holds for its flags.
    public var launch: [LaunchRule]
    /// Whether the file declares `flows` and `launch` (else it has one `root`: one flow,
    /// `main`, and its `GET /v1/app` document keeps the single-root form).
    public var declaresFlows: Bool
    /// The screens by name.
    public var screens: [String: Screen] {
        didSet { declaresFlowScreens = screens.values.contains(where: \.flow) }
    }
    /// Whether any screen declares `flow` (a removal need not look its nodes' screens up otherwise).
    public private(set) var declaresFlowScreens: Bool
    /// Screen names, sorted, for stable output.
    public var screenOrder: [String]
    /// Deep-link routes in file order; the first match wins.
    public var routes: [Route]
    /// The experiments, by key (see ``Experiment``): declared by the app as written; an
    /// effective app (``effective(choosing:)``) has none.
    public internal(set) var experiments: [Experiment] {
        get { experimentParts?.experiments ?? [] }
        set { experimentParts = ExperimentParts(experiments: newValue, assigned: assigned) }
    }
    /// The experiments whose variants an effective app runs for its sessions, by key; none for
    /// the app as written.
    public internal(set) var assigned: [Assignment] {
        get { experimentParts?.assigned ?? [] }
        set { experimentParts = ExperimentParts(experiments: experiments, assigned: newValue) }
    }
    /// ``experiments`` and ``assigned`` behind one optional reference: every session's tree
    /// holds its app, and every change copies the tree, so an app without experiments costs a
    /// copy nothing more.
    private var experimentParts: ExperimentParts?

    /// Creates a single-root app: one flow, ``singleFlow``, always launched.
    public init(name: String, scheme: String? = nil, hosts: [String] = [], root: Root, screens: [String: Screen], routes: [Route] = []) {
        self.init(
            name: name, scheme: scheme, hosts: hosts, flows: [Self.singleFlow: Flow(name: Self.singleFlow, root: root)],
            launch: [LaunchRule(flow: Self.singleFlow)], declaresFlows: false, screens: screens, routes: routes)
    }

    /// Creates an app of root flows; ``parse(_:source:)`` validates one read from JSON.
    public init(
        name: String, scheme: String? = nil, hosts: [String] = [], flows: [String: Flow], launch: [LaunchRule], declaresFlows: Bool = true,
        screens: [String: Screen], routes: [Route] = []
    ) {
        self.name = name
        self.scheme = scheme
        self.hosts = hosts
        self.flows = flows
        self.flowOrder = flows.keys.sorted()
        self.launch = launch
        self.declaresFlows = declaresFlows
        self.screens = screens
        self.declaresFlowScreens = screens.values.contains(where: \.flow)
        self.screenOrder = screens.keys.sorted()
        self.routes = routes
    }

    /// The one flow of a single-root app.
    public static let singleFlow = "main"

    /// The flow a session with these flags shows: that of the first launch rule that holds (the
    /// last always does) and does not choose an overlay, which is shown over it
    /// (``launchOverlay(for:)``).
    public func launchFlow(for flags: Set<String>) -> String {
        (launch.first { $0.holds(for: flags) && flows[$0.flow]?.overlay != true } ?? launch[launch.count - 1]).flow
    }

    /// The root of a single-root app (for an app of flows, see ``flows``).
    public var root: Root { flows[launch[launch.count - 1].flow]!.root }

    /// The tabs of a single-root app with a tab bar.
    public var tabs: [Tab]? { declaresFlows ? nil : root.tabs }
}

/// An app's experiments and what an effective app runs of them (``AppDescription/experiments``),
/// immutable: a change of either makes another.
private final class ExperimentParts: Sendable, Equatable {
    let experiments: [AppDescription.Experiment]
    let assigned: [AppDescription.Assignment]

    init?(experiments: [AppDescription.Experiment], assigned: [AppDescription.Assignment]) {
        guard !experiments.isEmpty || !assigned.isEmpty else { return nil }
        self.experiments = experiments
        self.assigned = assigned
    }

    static func == (lhs: ExperimentParts, rhs: ExperimentParts) -> Bool {
        lhs === rhs || (lhs.experiments == rhs.experiments && lhs.assigned == rhs.assigned)
    }
}
