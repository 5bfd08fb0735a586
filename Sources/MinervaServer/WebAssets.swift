import MicroHTTP

/// The web client's static files, embedded in the binary at build time (`Web/`), or read from
/// a folder given with `--web-root` while developing it.
struct WebAssets: Sendable {
    /// A folder to read the files from instead of the embedded copies.
    let root: String?

    /// The files the client is made of, by the name in `/web/<name>`, with their media types.
    private static let embedded: [String: (type: String, bytes: [UInt8])] = [
        "index.html": ("text/html; charset=utf-8", PackageResources.index_html),
        "app.js": ("text/javascript; charset=utf-8", PackageResources.app_js),
        "style.css": ("text/css; charset=utf-8", PackageResources.style_css),
    ]

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
