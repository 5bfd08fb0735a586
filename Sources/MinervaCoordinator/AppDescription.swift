public import MinervaJSON

/// What an app is made of: its screens, how a session starts, and its deep-link routes.
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

        /// Creates a screen entry.
        public init(
            presentation: PresentationMode = .push, style: ModalStyle? = nil, embedInNavigation: Bool? = nil,
            params: [String] = [], title: String? = nil, guarded: Guard? = nil
        ) {
            self.presentation = presentation
            self.style = style
            self.embedInNavigation = embedInNavigation
            self.params = params
            self.title = title
            self.guarded = guarded
        }
    }

    /// A tab of a tabs app: its id and the screen at the root of its navigator.
    public struct Tab: Sendable, Equatable {
        /// The tab's id (`home`).
        public var id: String
        /// The screen at the root of its stack.
        public var screen: String
    }

    /// How a session starts.
    public enum Root: Sendable, Equatable {
        /// One screen at the root of the base navigator.
        case screen(String)
        /// A tab bar: one navigator per tab, the first selected.
        case tabs([Tab])
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

        /// Creates a step.
        public init(
            screen: String, params: [String: JSONValue] = [:], presentation: PresentationMode? = nil, style: ModalStyle? = nil,
            embedInNavigation: Bool? = nil
        ) {
            self.screen = screen
            self.params = params
            self.presentation = presentation
            self.style = style
            self.embedInNavigation = embedInNavigation
        }
    }

    /// A deep-link route: a path pattern and the steps that build its state.
    public struct Route: Sendable, Equatable {
        /// The pattern as written (`/users/:userId`).
        public var path: String
        /// Its segments; those starting with `:` are parameters.
        public var segments: [String]
        /// The steps, applied in order from the reset state.
        public var steps: [Step]
        /// The tab selected before the steps, in a tabs app.
        public var tab: String?
    }

    /// The app's name.
    public var name: String
    /// The URL scheme of its deep links, if any.
    public var scheme: String?
    /// How a session starts.
    public var root: Root
    /// The screens by name.
    public var screens: [String: Screen]
    /// Screen names, sorted, for stable output.
    public var screenOrder: [String]
    /// Deep-link routes in file order; the first match wins.
    public var routes: [Route]

    /// Creates an app description; ``parse(_:source:)`` validates one read from JSON.
    public init(name: String, scheme: String? = nil, root: Root, screens: [String: Screen], routes: [Route] = []) {
        self.name = name
        self.scheme = scheme
        self.root = root
        self.screens = screens
        self.screenOrder = screens.keys.sorted()
        self.routes = routes
    }

    /// The tabs, when the app has a tab bar.
    public var tabs: [Tab]? {
        if case .tabs(let tabs) = root { tabs } else { nil }
    }
}
