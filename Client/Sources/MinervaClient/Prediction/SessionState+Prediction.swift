extension SessionState {
    /// Whether this predicted state is the server's: equal, but for when an experiment exposed the
    /// session (`exposedAt`), which the prediction times by the device's clock and the server by
    /// its own, so that an exposure both foresaw still confirms the prediction.
    func predicts(_ server: SessionState) -> Bool {
        guard let predicted = experiments, let confirmed = server.experiments else { return self == server }
        var aligned = self
        for (key, membership) in predicted where membership.exposedAt != nil {
            if let time = confirmed[key]?.exposedAt { aligned.experiments?[key]?.exposedAt = time }
        }
        return aligned == server
    }
}
