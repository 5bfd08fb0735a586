extension Endpoint {
    /// Every endpoint of the API, one row each, as openapi.yaml lists them (`RouteContractTests`
    /// holds the two to each other). No two patterns match the same path.
    static let all: [Endpoint] = [
        .server("/", ["GET", "HEAD"], metric: "web", usesStore: false) { api, _ throws(APIError) in .response(try api.getWebFile("index.html")) },
        .server("/web/{fileName}", ["GET", "HEAD"], metric: "web", usesStore: false) { api, call throws(APIError) in
            .response(try api.getWebFile(call.path.fileName))
        },
        .server("/metrics", ["GET", "HEAD"], metric: "metrics", usesStore: false) { api, _ in .response(api.getMetrics()) },
        .server("/healthz", ["GET", "HEAD"], metric: "healthz", usesStore: true) { api, _ in .response(api.health()) },
        .server("/v1/app", ["GET", "HEAD"], metric: "app", usesStore: false) { api, _ in .response(api.getApp()) },
        .server("/v1/server", ["GET", "HEAD"], metric: "server", usesStore: false) { api, _ in .response(api.getServer()) },
        .admin("/v1/admin/analytics/screens", ["GET", "HEAD"], metric: "analytics_screens") { api, call throws(APIError) in
            .response(try api.analytics(.screens, call.request))
        },
        .admin("/v1/admin/analytics/funnel", ["GET", "HEAD"], metric: "analytics_funnel") { api, call throws(APIError) in
            .response(try api.analytics(.funnel, call.request))
        },
        .admin("/v1/admin/analytics/flows", ["GET", "HEAD"], metric: "analytics_flows") { api, call throws(APIError) in
            .response(try api.analytics(.flows, call.request))
        },
        .server("/v1/sessions", ["POST"], metric: "sessions", usesStore: true) { api, call throws(APIError) in
            try api.createSession(call.request, call.exchange)
        },
        .session("/v1/sessions/{id}", ["GET", "HEAD", "DELETE"], metric: "session") { api, call throws(APIError) in
            try call.method == "DELETE" ? api.deleteSession(call) : api.getSession(call)
        },
        .session("/v1/sessions/{id}/events", ["GET", "HEAD"], metric: "events") { api, call throws(APIError) in try api.events(call) },
        .session("/v1/sessions/{id}/push", ["POST"], metric: "push") { api, call throws(APIError) in try api.perform(.push, call) },
        .session("/v1/sessions/{id}/present", ["POST"], metric: "present") { api, call throws(APIError) in try api.perform(.present, call) },
        .session("/v1/sessions/{id}/dismiss", ["POST"], metric: "dismiss") { api, call throws(APIError) in try api.perform(.dismiss, call) },
        .session("/v1/sessions/{id}/pop", ["POST"], metric: "pop") { api, call throws(APIError) in try api.perform(.pop, call) },
        .session("/v1/sessions/{id}/set-root", ["POST"], metric: "set-root") { api, call throws(APIError) in try api.perform(.setRoot, call) },
        .session("/v1/sessions/{id}/navigate", ["POST"], metric: "navigate") { api, call throws(APIError) in try api.perform(.navigate, call) },
        .session("/v1/sessions/{id}/deep-link", ["POST"], metric: "deep-link") { api, call throws(APIError) in try api.perform(.deepLink, call) },
        .session("/v1/sessions/{id}/finish", ["POST"], metric: "finish") { api, call throws(APIError) in try api.perform(.finish, call) },
        .session("/v1/sessions/{id}/select-tab", ["POST"], metric: "select-tab") { api, call throws(APIError) in try api.perform(.selectTab, call) },
        .session("/v1/sessions/{id}/size-class", ["POST"], metric: "size-class") { api, call throws(APIError) in try api.perform(.sizeClass, call) },
        .session("/v1/sessions/{id}/flags", ["POST"], metric: "flags") { api, call throws(APIError) in try api.perform(.flags, call) },
        .session("/v1/sessions/{id}/link", ["GET", "HEAD"], metric: "link") { api, call throws(APIError) in .response(try api.link(call)) },
        .session("/v1/sessions/{id}/versions/{version}", ["GET", "HEAD"], metric: "version") { api, call throws(APIError) in
            .response(try api.pastVersion(call))
        },
        .session("/v1/sessions/{id}/restore", ["POST"], metric: "restore") { api, call throws(APIError) in try api.restore(call) },
        .session("/v1/sessions/{id}/nodes/{node}/params", ["PATCH"], metric: "params") { api, call throws(APIError) in try api.updateParams(call) },
        .session("/v1/sessions/{id}/nodes/{node}/ui", ["PUT"], metric: "ui") { api, call throws(APIError) in try api.putUI(call) },
        .session("/v1/sessions/{id}/nodes/{node}/presentation", ["POST"], metric: "presentation") { api, call throws(APIError) in
            try api.changePresentation(call)
        },
        .session("/v1/sessions/{id}/nodes/{node}/results/{screen}", ["DELETE"], metric: "result") { api, call throws(APIError) in
            try api.consumeResult(call)
        },
        .session("/v1/sessions/{id}/nodes/{node}/list", ["GET", "HEAD", "PUT"], metric: "list") { api, call throws(APIError) in
            try call.method == "PUT" ? api.putList(call) : .response(api.getList(call))
        },
    ]
}
