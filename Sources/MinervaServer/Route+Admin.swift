extension Route {
    /// The reports under `/v1/admin/analytics/`.
    enum AnalyticsReport: String, CaseIterable {
        case screens, funnel, flows
    }

    /// Whether the path is an admin path: answered only with the admin token, and unknown
    /// (`404`) when the server has none.
    var isAdmin: Bool {
        if case .server(.analytics) = self { return true }
        return false
    }
}
