import MicroHTTP

/// The web client's static files, embedded in the binary at build time (`Web/`), or read from
/// a folder given with `--web-root` while developing it.
struct WebAssets: Sendable {
    /// A folder to read the files from instead of the embedded copies.
    let root: String?

    /// The files the client is made of, by the name in `/web/<name>`, with their media types.
    /// The scripts are ES modules: browsers load them only when served as JavaScript.
    private static let embedded: [String: (type: String, bytes: [UInt8])] = [
        "index.html": (html, PackageResources.index_html),
        "style.css": ("text/css; charset=utf-8", PackageResources.style_css),
        "app.js": (script, PackageResources.app_js),
        "api.js": (script, PackageResources.api_js),
        "live.js": (script, PackageResources.live_js),
        "sse.js": (script, PackageResources.sse_js),
        "store.js": (script, PackageResources.store_js),
        "session.js": (script, PackageResources.session_js),
        "device.js": (script, PackageResources.device_js),
        "screen.js": (script, PackageResources.screen_js),
        "list.js": (script, PackageResources.list_js),
        "inspector.js": (script, PackageResources.inspector_js),
        "timeline.js": (script, PackageResources.timeline_js),
        "topbar.js": (script, PackageResources.topbar_js),
        "toast.js": (script, PackageResources.toast_js),
        "dom.js": (script, PackageResources.dom_js),
        "analytics.js": (script, PackageResources.analytics_js),
        "experiments.js": (script, PackageResources.experiments_js),
        "samples.js": (script, PackageResources.samples_js),
        "flows.js": (script, PackageResources.flows_js),
        "analytics.css": ("text/css; charset=utf-8", PackageResources.analytics_css),
    ]
    private static let html = "text/html; charset=utf-8"
    private static let script = "text/javascript; charset=utf-8"

    /// Whether the client has a file of this name.
    static func contains(_ name: String) -> Bool {
        embedded[name] != nil
    }

    /// The answer for a file, or `nil` when there is no such file.
    func response(for name: String) -> HTTPResponse? {
        guard let asset = Self.embedded[name] else { return nil }
        var bytes = asset.bytes
        if let root, let fromDisk = readFile("\(root)/\(name)") {
            bytes = fromDisk
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", asset.type), ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")],
            body: bytes)
    }
}
