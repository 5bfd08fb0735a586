import MinervaModel

extension Endpoint {
    /// Every endpoint of the API, one row each, as openapi.yaml lists them (`RouteContractTests`
    /// holds the two to each other). No two patterns match the same path; a path is matched
    /// against the rows in order, so a session's paths, which most requests name, come first.
    static let all: [Endpoint] = [
        .session("/v1/sessions/{id}", ["GET", "HEAD", "DELETE"], metric: "session", ownerMethods: ["DELETE"]) { api, session, request, exchange, _ throws(APIError) in
            try request.method == "DELETE" ? api.deleteSession(session, request, exchange) : api.getSession(session, request, exchange)
        },
        .session("/v1/sessions/{id}/events", ["GET", "HEAD"], metric: "events") { api, session, request, exchange, _ throws(APIError) in
            try api.events(session, request, exchange)
        },
        .operation("/v1/sessions/{id}/push", ["POST"], metric: "push", .push),
        .operation("/v1/sessions/{id}/present", ["POST"], metric: "present", .present),
        .operation("/v1/sessions/{id}/dismiss", ["POST"], metric: "dismiss", .dismiss),
        .operation("/v1/sessions/{id}/pop", ["POST"], metric: "pop", .pop),
        .operation("/v1/sessions/{id}/set-root", ["POST"], metric: "set-root", .setRoot),
        .operation("/v1/sessions/{id}/navigate", ["POST"], metric: "navigate", .navigate),
        .operation("/v1/sessions/{id}/deep-link", ["POST"], metric: "deep-link", .deepLink),
        .operation("/v1/sessions/{id}/finish", ["POST"], metric: "finish", .finish),
        .operation("/v1/sessions/{id}/select-tab", ["POST"], metric: "select-tab", .selectTab),
        .operation("/v1/sessions/{id}/size-class", ["POST"], metric: "size-class", .sizeClass),
        .operation("/v1/sessions/{id}/display-mode", ["POST"], metric: "display-mode", .displayMode),
        .operation("/v1/sessions/{id}/flags", ["POST"], metric: "flags", .flags),
        .session("/v1/sessions/{id}/link", ["GET", "HEAD"], metric: "link") { api, session, _, _, _ throws(APIError) in
            .response(try api.link(session))
        },
        .session("/v1/sessions/{id}/versions/{version}", ["GET", "HEAD"], metric: "version") { api, session, request, _, path throws(APIError) in
            .response(try api.pastVersion(path.version, of: session, request))
        },
        .session("/v1/sessions/{id}/restore", ["POST"], metric: "restore") { api, session, request, exchange, _ throws(APIError) in
            try api.restore(session, request, exchange)
        },
        .session("/v1/sessions/{id}/nodes/{node}/params", ["PATCH"], metric: "params", changesOnly: true) { api, session, request, exchange, path throws(APIError) in
            try api.perform(.params, node: path.node, on: session, request, exchange)
        },
        .session("/v1/sessions/{id}/nodes/{node}/ui", ["PUT"], metric: "ui", changesOnly: true) { api, session, request, exchange, path throws(APIError) in
            try api.perform(.ui, node: path.node, on: session, request, exchange)
        },
        .session("/v1/sessions/{id}/nodes/{node}/presentation", ["POST"], metric: "presentation", changesOnly: true) {
            api, session, request, exchange, path throws(APIError) in
            try api.perform(.presentation, node: path.node, on: session, request, exchange)
        },
        .session("/v1/sessions/{id}/nodes/{node}/results/{screen}", ["DELETE"], metric: "result", changesOnly: true) {
            api, session, request, exchange, path throws(APIError) in
            try api.perform(.results, node: path.node, screen: path.screen, on: session, request, exchange)
        },
        .session("/v1/sessions/{id}/nodes/{node}/list", ["GET", "HEAD", "PUT", "PATCH"], metric: "list", changesOnly: true) {
            api, session, request, exchange, path throws(APIError) in
            switch request.method {
            case "PUT": try api.changeList(.list, path.node, on: session, request, exchange)
            case "PATCH": try api.changeList(.listPatch, path.node, on: session, request, exchange)
            default: .response(try api.getList(path.node, on: session, request))
            }
        },
        .session("/v1/sessions/{id}/tokens", ["GET", "HEAD", "POST"], metric: "tokens", ownerMethods: ["GET", "HEAD", "POST"]) {
            api, session, request, _, _ throws(APIError) in
            .response(request.method == "POST" ? try api.issueToken(session, request) : try api.listTokens(session))
        },
        .session("/v1/sessions/{id}/tokens/{token}", ["DELETE"], metric: "token", ownerMethods: ["DELETE"]) { api, session, _, _, path throws(APIError) in
            .response(try api.revokeToken(path.token, of: session))
        },
        .session("/v1/sessions/{id}/access", ["GET", "HEAD"], metric: "access") { api, _, _, exchange, _ in .response(api.access(exchange)) },
        .server("/v1/sessions", ["POST"], metric: "sessions", usesStore: true) { api, request, exchange, _ throws(APIError) in
            try api.createSession(request, exchange)
        },
        .server("/", ["GET", "HEAD"], metric: "web", usesStore: false) { api, _, _, _ throws(APIError) in
            .response(try api.getWebFile("index.html"))
        },
        .server("/web/{fileName}", ["GET", "HEAD"], metric: "web", usesStore: false) { api, _, _, path throws(APIError) in
            .response(try api.getWebFile(path.fileName))
        },
        .server("/metrics", ["GET", "HEAD"], metric: "metrics", usesStore: false) { api, _, _, _ in .response(api.getMetrics()) },
        .server("/healthz", ["GET", "HEAD"], metric: "healthz", usesStore: true) { api, _, _, _ in .response(api.health()) },
        .server("/v1/app", ["GET", "HEAD"], metric: "app", usesStore: false) { api, _, _, _ in .response(api.getApp()) },
        .server("/v1/app/versions/{appVersion}", ["GET", "HEAD"], metric: "app_version", usesStore: true) { api, request, _, path throws(APIError) in
            .response(try api.getApp(version: path.appVersion, request))
        },
        .server("/v1/server", ["GET", "HEAD"], metric: "server", usesStore: false) { api, _, _, _ in .response(api.getServer()) },
        .report("/v1/admin/analytics/screens", ["GET", "HEAD"], metric: "analytics_screens", .screens),
        .report("/v1/admin/analytics/funnel", ["GET", "HEAD"], metric: "analytics_funnel", .funnel),
        .report("/v1/admin/analytics/flows", ["GET", "HEAD"], metric: "analytics_flows", .flows),
        .admin("/v1/admin/experiments/{experiment}", ["GET", "HEAD"], metric: "experiment") { api, request, _, path throws(APIError) in
            .response(try api.experimentResults(path.experiment, request))
        },
        .admin("/v1/admin/experiment-units", ["DELETE"], metric: "experiment_units") { api, request, _, _ throws(APIError) in
            .response(try api.deleteExperimentUnits(request))
        },
    ]

    /// A report under `/v1/admin/analytics/`.
    private static func report(_ pattern: StaticString, _ methods: [String], metric: String, _ report: AnalyticsReport) -> Endpoint {
        .admin(pattern, methods, metric: metric) { api, request, _, _ throws(APIError) in .response(try api.analytics(report, request)) }
    }

    /// A navigation operation, `POST /v1/sessions/{id}/{operation}`.
    private static func operation(_ pattern: StaticString, _ methods: [String], metric: String, _ operation: NavigationOperation) -> Endpoint {
        .session(pattern, methods, metric: metric, changesOnly: true) { api, session, request, exchange, _ throws(APIError) in
            try api.perform(operation, on: session, request, exchange)
        }
    }
}
