import MinervaClient

/// The taps of a scripted walk through an app: mostly navigations to its screens, and pops,
/// dismissals, tab switches, deep links and scrolls, each drawn from the app description and the
/// state shown, the same for the same seed.
struct TapScript {
    let app: AppDescription
    private var state: UInt64

    init(app: AppDescription, seed: UInt64) {
        self.app = app
        state = seed
    }

    /// The next tap on the state shown.
    mutating func next(on shown: SessionState) throws -> ChangeRequest {
        let screens = app.screens.keys.sorted()
        switch draw(10) {
        case 0...3:
            let screen = screens[draw(screens.count)]
            return try .navigate(to: screen, params: params(of: screen))
        case 4, 5:
            return .pop()
        case 6:
            return .dismiss()
        case 7:
            guard let tabs = shown.tabs?.items, !tabs.isEmpty else { return .pop(toRoot: true) }
            return .selectTab(tabs[draw(tabs.count)].id, dismiss: true)
        case 8:
            guard !app.routes.isEmpty else { return .dismiss() }
            let path = app.routes[draw(app.routes.count)].path.split(separator: "/").map { $0.hasPrefix(":") ? "\(1 + draw(3))" : String($0) }
            return .deepLink("/" + path.joined(separator: "/"))
        default:
            return try .setUI(["scroll": .int(draw(100))], of: shown.focus)
        }
    }

    private mutating func params(of screen: String) -> Params {
        Dictionary(uniqueKeysWithValues: (app.screens[screen]?.params ?? []).map { ($0, JSONValue.string("\(1 + draw(3))")) })
    }

    /// A number below `bound` (SplitMix64).
    private mutating func draw(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
