public import MinervaSessions

extension Persistence {
    /// The persistence a test's store makes: memory without one, shared for a store several
    /// processes share, local for another.
    public static func of(_ storage: (any SessionStorage & AnalyticsStorage)?) -> Persistence {
        guard let storage else { return .memory }
        if let shared = storage as? any SharedSessionStorage & AnalyticsStorage { return .shared(shared) }
        return .local(storage)
    }
}
