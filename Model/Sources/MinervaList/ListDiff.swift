/// What changed between two versions of a list, in UICollectionView batch-update terms:
/// deleted, updated and move-from positions index the old list; inserted and move-to
/// positions index the new one.
public struct ListDiff: Hashable, Sendable {
    /// A cell's position: section index and item index.
    public struct Position: Hashable, Sendable, Comparable {
        /// The section's index.
        public let section: Int
        /// The item's index within the section.
        public let item: Int

        /// Creates a position.
        public init(section: Int, item: Int) {
            self.section = section
            self.item = item
        }

        public static func < (lhs: Position, rhs: Position) -> Bool {
            (lhs.section, lhs.item) < (rhs.section, rhs.item)
        }
    }

    /// A move from an old position to a new one.
    public struct Move<Index: Hashable & Sendable>: Hashable, Sendable {
        /// Where it was, in the old list.
        public let from: Index
        /// Where it is, in the new list.
        public let to: Index

        /// Creates a move.
        public init(from: Index, to: Index) {
            self.from = from
            self.to = to
        }
    }

    /// The list version diffed from.
    public var from: Int
    /// The list version diffed to.
    public var to: Int
    /// Sections gone (old indices).
    public var deletedSections: [Int] = []
    /// Sections new (new indices).
    public var insertedSections: [Int] = []
    /// Sections that moved: the fewest, outside a longest increasing subsequence of the survivors.
    public var movedSections: [Move<Int>] = []
    /// Cells gone from surviving sections (old positions).
    public var deletedItems: [Position] = []
    /// Cells new in surviving sections (new positions).
    public var insertedItems: [Position] = []
    /// Cells that moved: every one that changed section, and the fewest within a section.
    public var movedItems: [Move<Position>] = []
    /// Cells whose kind or content changed, moved or not (old positions).
    public var updatedItems: [Position] = []

    /// Creates an empty diff between two versions.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty && deletedItems.isEmpty
            && insertedItems.isEmpty && movedItems.isEmpty && updatedItems.isEmpty
    }
}
