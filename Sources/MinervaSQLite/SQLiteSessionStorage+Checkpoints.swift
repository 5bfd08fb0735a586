import Foundation

extension SQLiteSessionStorage {
    /// How many pages the write-ahead log holds before SQLite copies it into the database.
    ///
    /// 10,000 pages (40 MiB), not SQLite's default 1,000: the hot pages (a session's newest events)
    /// are copied once per checkpoint however often they changed, so rarer checkpoints copy fewer
    /// pages per change. Yet at most a quarter of the space free when the store opens (100 pages
    /// at least): on a small disk a log that never reached its checkpoint would fill the disk by
    /// itself, and could not be copied back then, since that needs room in the database file.
    /// - Parameter freeBytes: the space free on the database's file system; `nil` when unknown.
    static func checkpointPages(freeBytes: Int64?, pageSize: Int64 = 4096) -> Int {
        let preferred = 10_000
        guard let freeBytes else { return preferred }
        return Int(min(Int64(preferred), max(100, freeBytes / 4 / pageSize)))
    }

    /// The space free on the file system that holds (or will hold) the file at `path`.
    static func freeBytes(besides path: String) -> Int64? {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: folder)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
