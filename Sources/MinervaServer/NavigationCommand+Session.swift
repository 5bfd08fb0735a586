import MinervaSessions

extension NavigationCommand {
    /// The command for the session core.
    var sessionCommand: SessionCommand {
        switch self {
        case let .push(from, screen, params): .push(from: from, screen: screen, params: params)
        case let .present(from, screen, params, style, embed): .present(from: from, screen: screen, params: params, style: style, embedInNavigation: embed)
        case let .dismiss(node): .dismiss(node: node)
        case let .pop(navigator, to, toRoot): .pop(navigator: navigator, to: to, toRoot: toRoot)
        case let .setRoot(navigator, stack): .setRoot(navigator: navigator, stack: stack)
        case let .navigate(from, screen, params): .navigate(from: from, screen: screen, params: params)
        case let .deepLink(url): .deepLink(url: url)
        case let .finish(node, status, value): .finish(node: node, status: status, value: value)
        case let .selectTab(tab): .selectTab(tab)
        case let .flags(set, clear): .flags(set: set, clear: clear)
        }
    }
}
