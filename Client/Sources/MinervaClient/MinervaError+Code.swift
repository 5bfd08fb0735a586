extension MinervaError {
    /// The `code` of the API's error document, which names the status. The codes that
    /// `openapi.yaml` lists have names here; a code a newer server adds keeps its raw value.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The code as the server wrote it, e.g. `precondition_failed`.
        public let rawValue: String

        /// Creates a code from the server's spelling.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// 400: the request is malformed: its body, a field's type, a query parameter, a header.
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// 401: the token is wrong, or the session is gone (deleted or expired).
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// 403: an extra token that may not do what it asks (a `read` token's change, or tokens
        /// and deleting the session, which only the owner token does), or a CORS preflight from an
        /// origin the server does not allow.
        public static let forbidden = Code(rawValue: "forbidden")
        /// 404: no such node, navigator, list or route (or path).
        public static let notFound = Code(rawValue: "not_found")
        /// 405: the path does not answer this method.
        public static let methodNotAllowed = Code(rawValue: "method_not_allowed")
        /// 409: the navigation is not possible in the session's state, or a limit is reached.
        public static let conflict = Code(rawValue: "conflict")
        /// 409: a device could not show this: the navigator belongs to a tab (or column) that is not shown.
        public static let notVisible = Code(rawValue: "not_visible")
        /// 409: a window-level presentation covers the tab bar or the navigator; dismiss it first.
        public static let covered = Code(rawValue: "covered")
        /// 409: the node says the user cannot swipe it away (`dismissible: false`).
        public static let notDismissible = Code(rawValue: "not_dismissible")
        /// 409: the change names a node or navigator the session had and removed since (another
        /// device popped or dismissed it first); nothing was applied to another node.
        public static let removed = Code(rawValue: "removed")
        /// 409: a device's change number (`Minerva-Device-Change`) skips past the next one the
        /// session expects of it; nothing was applied: send the changes between first.
        public static let deviceSeqGap = Code(rawValue: "device_seq_gap")
        /// 409: the focus is a screen that holds links, and holds four already; they apply once it leaves.
        public static let linksHeld = Code(rawValue: "links_held")
        /// 409: the change is aimed at the flow beneath an overlay (a PIN lock), which takes no
        /// navigation change until the overlay leaves.
        public static let overlaid = Code(rawValue: "overlaid")
        /// 410: the session was made with an app description the server no longer serves; create a new session.
        public static let appChanged = Code(rawValue: "app_changed")
        /// 412: `If-Match` names a version the session has moved on from.
        public static let preconditionFailed = Code(rawValue: "precondition_failed")
        /// 413: the body is over the server's limit.
        public static let payloadTooLarge = Code(rawValue: "payload_too_large")
        /// 414: the path and query are over the server's limit.
        public static let uriTooLong = Code(rawValue: "uri_too_long")
        /// 422: well-formed but invalid: an unknown screen or tab, missing params, a bad value.
        public static let unprocessable = Code(rawValue: "unprocessable")
        /// 429: the session spent its request budget; see `retryAfter`.
        public static let rateLimited = Code(rawValue: "rate_limited")
        /// 431: the header fields are over the server's limit.
        public static let headersTooLarge = Code(rawValue: "headers_too_large")
        /// 503: the server cannot store or read now, or holds its limit of sessions; see `retryAfter`.
        public static let unavailable = Code(rawValue: "unavailable")
    }
}
