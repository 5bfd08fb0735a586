import OpenAPIRuntime

extension ChangeRequest {
    /// `navigate`: shows `screen` as the app description says it is shown (see
    /// ``MinervaSession/navigate(to:params:from:sampleLists:)``).
    /// - Throws: `EncodingError` for params that are not JSON.
    public static func navigate(to screen: String, params: Params = [:], from node: String? = nil, sampleLists: Bool = false) throws -> Self {
        Self(body: .navigate(.init(from: node, screen: screen, params: try params.container(), sampleLists: sampleLists ? true : nil)))
    }

    /// `push`: pushes `screen` on the navigator of `node` or of the focus (see ``MinervaSession/push(_:params:from:)``).
    /// - Throws: `EncodingError` for params that are not JSON.
    public static func push(_ screen: String, params: Params = [:], from node: String? = nil) throws -> Self {
        Self(body: .push(.init(from: node, screen: screen, params: try params.container())))
    }

    /// `present`: presents `screen` modally, with presentation settings (see
    /// ``MinervaSession/present(_:params:style:sheet:anchor:dismissible:from:)``).
    /// - Throws: `EncodingError` for params that are not JSON; ``UnsupportedValue`` for a style the server does not take.
    public static func present(
        _ screen: String, params: Params = [:], style: ModalStyle? = nil, embedInNavigation: Bool? = nil, sheet: Sheet? = nil, anchor: Anchor? = nil,
        dismissible: Bool? = nil, from node: String? = nil
    ) throws -> Self {
        Self(
            body: .present(
                .init(
                    from: node, screen: screen, params: try params.container(), style: try style.map { try $0.requestValue(for: "style") },
                    embedInNavigation: embedInNavigation, sheet: sheet, anchor: anchor, dismissible: dismissible)))
    }

    /// `dismiss`: dismisses a presented node (the top-most when nil) and everything above it;
    /// `interactive` when the user swiped it away (see ``MinervaSession/reportDismissal(of:)``).
    public static func dismiss(_ node: String? = nil, interactive: Bool = false) -> Self {
        Self(body: .dismiss(.init(node: node, interactive: interactive ? true : nil)))
    }

    /// `pop`: pops the top of a navigator's stack, down to a node, or to the root; `interactive`
    /// when the user swiped back (see ``MinervaSession/pop(navigator:to:toRoot:)``).
    public static func pop(navigator: String? = nil, to node: String? = nil, toRoot: Bool = false, interactive: Bool = false) -> Self {
        Self(body: .pop(.init(navigator: navigator, to: node, toRoot: toRoot ? true : nil, interactive: interactive ? true : nil)))
    }

    /// `pop {"node"}`: pops exactly `node`, the top of its stack (see ``MinervaSession/pop(exactly:)``).
    public static func pop(exactly node: String) -> Self {
        Self(body: .pop(.init(node: node)))
    }

    /// `set-root`: replaces a navigator's stack with one screen (see ``MinervaSession/setRoot(_:params:navigator:)``).
    /// - Throws: `EncodingError` for params that are not JSON.
    public static func setRoot(_ screen: String, params: Params = [:], navigator: String? = nil) throws -> Self {
        Self(body: .setRoot(.init(navigator: navigator, screen: screen, params: try params.container())))
    }

    /// `set-root {"stack"}`: replaces a navigator's stack, bottom first (see ``MinervaSession/setRoot(stack:navigator:)``).
    public static func setRoot(stack: [StackEntry], navigator: String? = nil) -> Self {
        Self(body: .setRoot(.init(navigator: navigator, stack: stack)))
    }

    /// `deep-link`: follows a deep link, keeping what is shown (see ``MinervaSession/deepLink(_:)``).
    public static func deepLink(_ url: String) -> Self {
        Self(body: .deepLink(.init(url: url)))
    }

    /// `finish`: ends the flow of `node` with a result for its parent (see ``MinervaSession/finish(_:status:value:)``).
    /// - Throws: `EncodingError` for a value that is not JSON; ``UnsupportedValue`` for a status the server does not take.
    public static func finish(_ node: String, status: FlowStatus, value: JSONValue? = nil) throws -> Self {
        let result = Components.Schemas.FinishRequest.ResultPayload(
            status: try status.requestValue(for: "result.status"), value: try value.map(OpenAPIValueContainer.init))
        return Self(body: .finish(.init(node: node, result: result)))
    }

    /// `select-tab`: selects a tab, first dismissing a window-level cover when `dismiss` (see
    /// ``MinervaSession/selectTab(_:dismiss:)``).
    public static func selectTab(_ tab: String, dismiss: Bool = false) -> Self {
        Self(body: .selectTab(.init(tab: tab, dismiss: dismiss ? true : nil)))
    }

    /// `size-class`: the device's horizontal size class (see ``MinervaSession/setSizeClass(_:)``).
    public static func sizeClass(_ horizontal: SizeClass) -> Self {
        Self(body: .sizeClass(.init(horizontal: horizontal.rawValue)))
    }

    /// `display-mode`: which columns a regular-width split view shows (see
    /// ``MinervaSession/setDisplayMode(_:)``).
    public static func displayMode(_ mode: SplitDisplayMode) -> Self {
        Self(body: .displayMode(.init(mode: mode.rawValue)))
    }

    /// `flags`: sets and clears session flags, `clear` first (see ``MinervaSession/setFlags(set:clear:)``).
    public static func flags(set: [String] = [], clear: [String] = []) -> Self {
        Self(body: .flags(.init(set: set, clear: clear)))
    }
}
