/// A node's list over time: the current content, its version, and enough older versions
/// to diff from any of the last `retainedVersions`.
public struct ListHistory: Sendable {
    /// What `diff(since:)` answers.
    public enum Answer: Hashable, Sendable {
        /// The changes from the asked version to the current one.
        case diff(ListDiff)
        /// The asked version is older than the history kept: reload the whole list.
        case reload
    }

    /// The current list version: 1 after the first replacement, +1 with each one.
    public private(set) var version: Int
    /// The current content, kept without its id map (see ``ListContent``): a later diff from an
    /// older version to it builds the map again.
    public private(set) var current: ListContent
    /// The diff from the previous version to the current one.
    public private(set) var latestDiff: ListDiff
    /// How many versions before the current one can be diffed from.
    public let retainedVersions: Int
    /// The versions before the current one, oldest first, as shared references: a mutation's
    /// step replaces the list on a copy of the session's state, and copying this array then
    /// retains one reference per version instead of copying each version's fields.
    var older: [ArchivedVersion] = []

    /// Starts a history with its first content (version 1).
    /// - Parameters:
    ///   - content: the first content.
    ///   - retainedVersions: how many earlier versions to keep for `diff(since:)`.
    public init(content: ListContent, retainedVersions: Int = 32) {
        version = 1
        current = content.archived
        latestDiff = ListDiff(from: .empty, to: content, fromVersion: 0, toVersion: 1)
        self.retainedVersions = max(1, retainedVersions)
    }

    /// A node's first list numbered `version` rather than 1 (a node that came back by a restore
    /// numbers its list after every version its earlier list had): its diffs start from 0 only.
    public init(firstVersion version: Int, content: ListContent, retainedVersions: Int) {
        self.init(version: version, current: content, older: [], retainedVersions: retainedVersions)
    }

    /// Restores a stored history; the latest diff is computed from the newest older version.
    init(version: Int, current: ListContent, older: [(version: Int, content: ListContent)], retainedVersions: Int) {
        self.version = version
        self.current = current.archived
        self.older = older.map { ArchivedVersion(version: $0.version, content: $0.content.archived) }
        self.retainedVersions = max(1, retainedVersions)
        let previous = older.last.map { ($0.content, $0.version) } ?? (.empty, 0)
        latestDiff = ListDiff(from: previous.0, to: current, fromVersion: previous.1, toVersion: version)
    }

    /// Replaces the content; an unchanged content still counts as a version with an empty diff.
    /// - Returns: the diff from the previous version.
    @discardableResult
    public mutating func replace(with content: ListContent) -> ListDiff {
        older.append(ArchivedVersion(version: version, content: current))
        if older.count > retainedVersions { older.removeFirst(older.count - retainedVersions) }
        latestDiff = ListDiff(from: current, to: content, fromVersion: version, toVersion: version + 1)
        version += 1
        current = content.archived
        return latestDiff
    }

    /// The diff from version `since` to the current one.
    /// - Parameter since: 0 (the empty list) up to the current version.
    /// - Returns: the diff, or `.reload` when `since` is older than the history kept.
    /// - Throws: ``ListError`` when `since` is newer than the current version or negative.
    public func diff(since: Int) throws(ListError) -> Answer {
        guard since >= 0, since <= version else {
            throw ListError(description: "since=\(since) is not between 0 and the current list version \(version)")
        }
        if since == version { return .diff(ListDiff(from: version, to: version)) }
        if since == latestDiff.from { return .diff(latestDiff) }
        if since == 0 { return .diff(ListDiff(from: .empty, to: current, fromVersion: 0, toVersion: version)) }
        guard let base = older.first(where: { $0.version == since }) else { return .reload }
        return .diff(ListDiff(from: base.content, to: current, fromVersion: since, toVersion: version))
    }
}

/// A list version kept for diffs from it: immutable, shared by every copy of its history.
final class ArchivedVersion: Sendable {
    let version: Int
    let content: ListContent

    init(version: Int, content: ListContent) {
        self.version = version
        self.content = content
    }
}
