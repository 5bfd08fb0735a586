import MinervaCoordinator
import MinervaJSON

/// The formats of the records a store keeps — events, session heads, list versions and
/// remembered answers — each written and read by code of its own, apart from the API's JSON, so
/// that the wire can change without touching stored data and a record can carry more than the
/// wire shows.
///
/// A record of this build is a JSON object whose `format` member names its format. Records
/// written before formats were named (by `395c355` and earlier) have none, and are format 1: an
/// event or an answer the same object without `format`, a head the tree snapshot itself, a list
/// version the bare array of sections. Each reader reads every format up to its newest, and
/// refuses a later one with a clear error rather than misreading it.
///
/// Format 3 is format 2 with what root flows added: a head's `flow` and a pending deep link,
/// the events `flowChanged` and `paramsChanged`, removal reason `flowChanged`. Format 4 adds
/// what presentable state added: a head's `ui` and `results`, the events `uiChanged` and
/// `resultConsumed`, an `added` event's `title`. A record is written in the oldest format that
/// holds it, so that the release before still reads every record that uses nothing it lacks
/// (a rolling upgrade), and refuses the others as a later format's.
///
/// Format 5 is a head written as a delta store writes it: a snapshot that the events after it
/// bring up to date. Every head this build writes is format 5, so that a release that takes the
/// head for the whole state refuses it instead of serving (and writing from) an older state.
///
/// Format 6 is an event that carries id counters (`nextNode`, `nextNavigator`: its change made ids
/// no event shows), which a release before it would replay to lower counters.
///
/// Format 7 is what changes numbered per device added: an event that names its device's change
/// (`device`, `deviceSeq`) or is `unchanged`, and a head that carries the devices' marks
/// (`devices`), which a release before it would drop, and then apply a device's change twice.
///
/// Format 8 is what a split view's display mode added: the event `displayModeChanged`, and a head
/// whose tree says a mode other than `automatic` (`displayMode`).
///
/// Format 9 is what screens that hold links added: the event `heldLinksChanged`, and a head whose
/// tree holds links (`heldLinks`), which a release before it would drop.
///
/// Format 10 is what overlay flows added: the event `overlayChanged`, and a head whose tree shows
/// an overlay (`overlay`, navigator `overlay`, node kind `overlay`), which a release before it
/// would take for a broken tree.
///
/// Format 11 is what flow experiments added: the event `exposed`, and a head that carries the
/// session's experiments (`experiments`), which a release before it would drop.
enum RecordFormat {
    /// The newest format this build reads and writes.
    static let current = 11
    /// The format of an event or head that carries experiments.
    static let experiments = 11
    /// The format of an event or head that carries an overlay.
    static let overlays = 10
    /// The format of an event or head that carries held deep links.
    static let heldLinks = 9
    /// The format of an event or head that carries a split view's display mode.
    static let displayModes = 8
    /// The format of an event or head that carries what changes numbered per device added.
    static let devices = 7
    /// The format of an event that carries id counters.
    static let counters = 6
    /// The format of every head this build writes.
    static let deltaHead = 5
    /// The format of records that hold something presentable state added.
    static let presentable = 4
    /// The format of records that hold something root flows added and nothing after.
    static let flows = 3
    /// The format of records that hold nothing root flows or presentable state added.
    static let plain = 2

    /// The oldest format that holds a record.
    /// - Parameters:
    ///   - usesFlows: whether it holds something root flows added.
    ///   - usesPresentableState: whether it holds something presentable state added.
    ///   - carriesCounters: whether it is an event that carries id counters.
    ///   - numbered: whether it is an event that names its device's change.
    ///   - carriesDisplayMode: whether it is an event that changes a split view's display mode.
    ///   - holdsLinks: whether it is an event that changes the held deep links.
    ///   - carriesOverlay: whether it is an event that shows or takes away an overlay.
    ///   - carriesExposure: whether it is an event that exposes the session to an experiment.
    static func oldest(
        usesFlows: Bool, usesPresentableState: Bool, carriesCounters: Bool = false, numbered: Bool = false, carriesDisplayMode: Bool = false,
        holdsLinks: Bool = false, carriesOverlay: Bool = false, carriesExposure: Bool = false
    ) -> Int {
        if carriesExposure { return experiments }
        if carriesOverlay { return overlays }
        if holdsLinks { return heldLinks }
        if carriesDisplayMode { return displayModes }
        return numbered ? devices : carriesCounters ? counters : usesPresentableState ? presentable : usesFlows ? flows : plain
    }

    /// The oldest format that holds a tree (in a head or a checkpoint): one that shows an overlay,
    /// holds links or says a display mode needs the format that added it; `nil` for any other.
    static func oldest(holding tree: CoordinatorTree) -> Int? {
        if tree.overlay != nil { return overlays }
        if !tree.heldLinks.isEmpty { return heldLinks }
        return tree.displayMode != .automatic ? displayModes : nil
    }

    /// The oldest format that holds a checkpoint an event carries: the format its first member
    /// names (``Checkpoint/bytes(of:)`` writes one only for a tree that ``oldest(holding:)`` gives
    /// one), 0 without one. Read from its first bytes rather than found by searching them:
    /// every checkpoint a durable store writes passes here.
    static func oldest(holdingCheckpoint checkpoint: [UInt8]) -> Int {
        guard checkpoint.starts(with: Self.checkpointFormatPrefix) else { return 0 }
        var format = 0
        for byte in checkpoint.dropFirst(Self.checkpointFormatPrefix.count) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
            format = format * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return format
    }

    /// How a checkpoint that names its format starts.
    private static let checkpointFormatPrefix = Array(#"{"format":"#.utf8)

    /// The format a record is in (1 without a `format` member), read before anything else of the
    /// record, so that a later format with members of its own is refused as such.
    /// - Throws: ``SnapshotError`` when the record names a format this build cannot read.
    static func of(_ record: JSONValue, kind: String) throws(SnapshotError) -> Int {
        guard let member = record.objectValue?["format"] else { return 1 }
        guard let format = member.intValue else { throw SnapshotError("\(kind): its record format is not a number") }
        guard (1...current).contains(format) else {
            throw SnapshotError(
                "\(kind): record format \(format) is not one this release reads (1 to \(current)): it was written by a later release")
        }
        return format
    }
}
