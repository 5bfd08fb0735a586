import MinervaCoordinator
public import MinervaModel

extension SessionCore {
    /// The results of the app's experiment `key` now, counted from what the store committed
    /// (every instance on a shared store counts the same rows).
    /// - Returns: `nil` when the app declares no experiment `key`.
    /// - Throws: `unavailable` when the store cannot be read.
    public func experimentResults(_ key: String) throws(SessionError) -> ExperimentResults? {
        guard let experiment = app.experiment(key) else { return nil }
        let rows: [StoredExperimentUnit]
        do throws(StorageError) {
            rows = try store.experimentUnits(of: key, seed: experiment.seed)
        } catch {
            logger.error("could not read the units of experiment \(key): \(error)")
            throw SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "the store cannot be read right now; retry")
        }
        return ExperimentResults(experiment, rows: rows, now: Int(configuration.now() * 1000))
    }

    /// Deletes every experiment row of `unit` (a user id, or a session id for experiments by
    /// session) and the facts kept of those sessions: they are counted no longer, in any
    /// experiment; the sessions keep their variants.
    /// - Returns: how many rows went.
    /// - Throws: `unavailable` when the store cannot be written.
    public func deleteExperimentUnits(of unit: String) throws(SessionError) -> Int {
        do throws(StorageError) {
            return try store.deleteExperimentUnits(of: unit)
        } catch {
            logger.error("could not delete the experiment units of a unit: \(error)")
            throw SessionError(.unavailable(retryAfter: 1, outcomeUnknown: false), "the store cannot be written right now; retry")
        }
    }
}
