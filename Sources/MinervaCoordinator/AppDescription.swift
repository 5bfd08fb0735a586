/// What an app is made of: its screens and how the session starts.
///
/// Loaded from the `--app` file (or the built-in demo app) and validated once at start;
/// every operation checks the screens it is asked for against it.
public struct AppDescription: Sendable, Equatable {
    /// How a screen is shown when navigated to.
    public enum PresentationMode: String, Sendable, CaseIterable {
        case push
        case present
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

        /// Creates a screen entry.
        public init(
            presentation: PresentationMode = .push, style: ModalStyle? = nil, embedInNavigation: Bool? = nil,
            params: [String] = [], title: String? = nil
        ) {
            self.presentation = presentation
            self.style = style
            self.embedInNavigation = embedInNavigation
            self.params = params
            self.title = title
        }
    }

    /// The app's name.
    public var name: String
    /// The URL scheme of its deep links, if any.
    public var scheme: String?
    /// The screen at the root of the base navigator when a session starts.
    public var rootScreen: String
    /// The screens by name.
    public var screens: [String: Screen]
    /// Screen names, sorted, for stable output.
    public var screenOrder: [String]

    /// Creates an app description; ``validated()`` checks it.
    public init(name: String, scheme: String? = nil, rootScreen: String, screens: [(String, Screen)]) {
        self.name = name
        self.scheme = scheme
        self.rootScreen = rootScreen
        self.screens = Dictionary(screens, uniquingKeysWith: { _, last in last })
        self.screenOrder = screens.map(\.0)
    }
}
