/// What changed between two versions of a list, in `UICollectionView` batch-update terms:
/// deleted, updated and move-from positions index the old list; inserted and move-to positions
/// the new one. ``batchUpdates`` turns it into what `performBatchUpdates` takes.
public struct ListDiff: Codable, Hashable, Sendable {
    /// The version it changes from (0: from an empty list).
    public var from: Int
    /// The version it changes to.
    public var to: Int
    /// The sections deleted, inserted and moved.
    public var sections: Changes<Int>
    /// The cells deleted, inserted, moved and updated.
    public var items: Changes<ListPosition>

    /// A diff.
    public init(from: Int, to: Int, sections: Changes<Int>, items: Changes<ListPosition>) {
        self.from = from
        self.to = to
        self.sections = sections
        self.items = items
    }

    /// The changes to sections (by index) or to cells (by position).
    public struct Changes<Position: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
        /// Positions in the old list.
        public var deleted: [Position]
        /// Positions in the new list.
        public var inserted: [Position]
        /// From a position in the old list to one in the new.
        public var moved: [ListMove<Position>]
        /// Cells whose content changed, by their position in the old list (never sections).
        public var updated: [Position]

        /// Changes.
        public init(deleted: [Position] = [], inserted: [Position] = [], moved: [ListMove<Position>] = [], updated: [Position] = []) {
            self.deleted = deleted
            self.inserted = inserted
            self.moved = moved
            self.updated = updated
        }
    }
}

/// A cell's position: its section's index and its index in the section.
public struct ListPosition: Codable, Hashable, Sendable {
    /// The section's index.
    public var section: Int
    /// The cell's index in its section.
    public var item: Int

    /// A position.
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }
}

/// A move from a position in the old list to one in the new.
public struct ListMove<Position: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The position in the old list.
    public var from: Position
    /// The position in the new list.
    public var to: Position

    /// A move.
    public init(from: Position, to: Position) {
        self.from = from
        self.to = to
    }
}
