/// Changes to some of a list's cells, each named by its id (``MinervaSession/patchList(_:on:)``),
/// so that a client changes one cell of a long list without sending the others. They apply in
/// order — the deletions, then the upserts, then the moves — and the server answers the diff as
/// for a `PUT`.
///
/// ```swift
/// try await session.patchList(ListPatch(upsert: [.init(cell: ListItem(id: "d12", kind: "dish", content: ["soldOut": true]))]), on: "n1")
/// ```
public struct ListPatch: Codable, Hashable, Sendable {
    /// A cell added, or one of the same id replaced (kind and content).
    public struct Upsert: Codable, Hashable, Sendable {
        /// The cell as it is to be.
        public var cell: ListItem
        /// The section it goes in (at the end unless ``before`` says where); a new cell needs this or ``before``.
        public var section: String?
        /// The cell it goes before, in that cell's section.
        public var before: String?

        /// An upsert; without a place, a replaced cell stays where it is.
        public init(cell: ListItem, section: String? = nil, before: String? = nil) {
            self.cell = cell
            self.section = section
            self.before = before
        }
    }

    /// A cell moved, unchanged, to a section's end or before another cell.
    public struct Move: Codable, Hashable, Sendable {
        /// The cell's id.
        public var id: String
        /// The section it goes to (at the end unless ``before`` says where).
        public var section: String?
        /// The cell it goes before, in that cell's section.
        public var before: String?

        /// A move; give a section, a cell to go before, or both.
        public init(id: String, section: String? = nil, before: String? = nil) {
            self.id = id
            self.section = section
            self.before = before
        }
    }

    /// The ids of the cells removed (`nil`: none; the API refuses an empty array).
    public var delete: [String]?
    /// The cells added or replaced.
    public var upsert: [Upsert]?
    /// The cells moved.
    public var move: [Move]?

    /// A patch; give at least one operation.
    public init(delete: [String] = [], upsert: [Upsert] = [], move: [Move] = []) {
        self.delete = delete.isEmpty ? nil : delete
        self.upsert = upsert.isEmpty ? nil : upsert
        self.move = move.isEmpty ? nil : move
    }

    private enum CodingKeys: String, CodingKey {
        case delete, upsert, move
    }

    /// Writes the operations given, leaving out those that are `nil` or empty (the API refuses an empty one).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let delete, !delete.isEmpty { try container.encode(delete, forKey: .delete) }
        if let upsert, !upsert.isEmpty { try container.encode(upsert, forKey: .upsert) }
        if let move, !move.isEmpty { try container.encode(move, forKey: .move) }
    }
}
