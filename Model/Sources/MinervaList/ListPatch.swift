/// Changes to some of a list's cells, each named by its id, so that a client changes one cell
/// without sending the others (`PATCH …/nodes/{node}/list`). They apply in order: the
/// deletions, then the upserts, then the moves, each to what the ones before it left; the
/// result is a list as a `PUT` of it would be, with the same checks and the same diff.
public struct ListPatch: Hashable, Sendable {
    /// Where a cell goes: into a section, before one of its cells or at its end.
    public struct Placement: Hashable, Sendable {
        /// The section's id; `nil` when ``before`` names the place (its cell's section).
        public let section: String?
        /// The cell it goes before; `nil`: the section's end.
        public let before: String?

        /// A place; at least one of the two is given.
        public init(section: String?, before: String?) {
            self.section = section
            self.before = before
        }
    }

    /// A cell added, or one of the same id replaced (its kind and content).
    public struct Upsert: Hashable, Sendable {
        /// The cell as it is to be.
        public let cell: Cell
        /// Where it goes; `nil` keeps a replaced cell where it is (a new cell needs one).
        public let placement: Placement?

        /// An upsert.
        public init(cell: Cell, placement: Placement?) {
            self.cell = cell
            self.placement = placement
        }
    }

    /// A cell moved, unchanged.
    public struct Move: Hashable, Sendable {
        /// The cell's id.
        public let id: String
        /// Where it goes (a move without one is refused).
        public let placement: Placement?

        /// A move.
        public init(id: String, placement: Placement?) {
            self.id = id
            self.placement = placement
        }
    }

    /// The ids of the cells removed.
    public let delete: [String]
    /// The cells added or replaced.
    public let upsert: [Upsert]
    /// The cells moved.
    public let move: [Move]

    /// A patch.
    public init(delete: [String] = [], upsert: [Upsert] = [], move: [Move] = []) {
        self.delete = delete
        self.upsert = upsert
        self.move = move
    }

    /// The most operations one patch may hold (deletions, upserts and moves together): each finds
    /// its cell by a scan of the list, so a patch costs its operations times the list's cells.
    /// A change of more cells is a `PUT` of the list.
    public static let maximumOperations = 1000

    /// The sections `content` becomes with the patch applied.
    /// - Throws: ``ListError`` naming the operation at fault: a cell or section that is not in
    ///   the list, a new cell or a move without a place, a `before` outside the section it names,
    ///   or a cell placed before itself; or no operation, or more than ``maximumOperations``.
    /// - Complexity: O(n · k) for n cells and k operations: each finds its cell by a scan.
    public func applied(to content: ListContent) throws(ListError) -> [ListSection] {
        let operations = delete.count + upsert.count + move.count
        guard operations > 0 else { throw ListError(description: "give 'delete', 'upsert' or 'move': the cells to change") }
        guard operations <= Self.maximumOperations else {
            throw ListError(description: "the patch holds \(operations) operations; at most \(Self.maximumOperations) are allowed: PUT the list instead")
        }
        var sections = content.sections.map { (id: $0.id, items: $0.items) }
        for (index, id) in delete.enumerated() {
            guard let (section, item) = Self.locate(id, in: sections) else { throw .patch("delete[\(index)]", "no cell '\(id)' in the list") }
            sections[section].items.remove(at: item)
        }
        for (index, upsert) in upsert.enumerated() {
            let at = "upsert[\(index)]"
            if let (section, item) = Self.locate(upsert.cell.id, in: sections) {
                sections[section].items[item] = upsert.cell
                if let placement = upsert.placement { try Self.place(upsert.cell.id, at: placement, in: &sections, operation: at) }
            } else {
                guard let placement = upsert.placement else {
                    throw .patch(at, "cell '\(upsert.cell.id)' is not in the list: a new cell needs a 'section' or a 'before'")
                }
                try Self.insert(upsert.cell, at: placement, in: &sections, operation: at)
            }
        }
        for (index, move) in move.enumerated() {
            guard let placement = move.placement else { throw .patch("move[\(index)]", "give a 'section', a 'before', or both: where the cell goes") }
            guard Self.locate(move.id, in: sections) != nil else { throw .patch("move[\(index)]", "no cell '\(move.id)' in the list") }
            try Self.place(move.id, at: placement, in: &sections, operation: "move[\(index)]")
        }
        return sections.map { ListSection(id: $0.id, items: $0.items) }
    }

    private typealias Sections = [(id: String, items: [Cell])]

    /// The section and position of a cell.
    private static func locate(_ id: String, in sections: Sections) -> (section: Int, item: Int)? {
        for (sectionIndex, section) in sections.enumerated() {
            if let item = section.items.firstIndex(where: { $0.id == id }) { return (sectionIndex, item) }
        }
        return nil
    }

    /// Takes a cell out and puts it in again at `placement`.
    private static func place(_ id: String, at placement: Placement, in sections: inout Sections, operation: String) throws(ListError) {
        guard placement.before != id else { throw .patch(operation, "cell '\(id)' cannot go before itself") }
        // The place is found before the cell is taken out, so that a refusal leaves it where it was.
        _ = try position(of: placement, in: sections, operation: operation)
        guard let (section, item) = locate(id, in: sections) else { return }
        let cell = sections[section].items.remove(at: item)
        try insert(cell, at: placement, in: &sections, operation: operation)
    }

    private static func insert(_ cell: Cell, at placement: Placement, in sections: inout Sections, operation: String) throws(ListError) {
        let (section, item) = try position(of: placement, in: sections, operation: operation)
        sections[section].items.insert(cell, at: item)
    }

    /// Where `placement` points: a section and the position in it.
    private static func position(of placement: Placement, in sections: Sections, operation: String) throws(ListError) -> (section: Int, item: Int) {
        if let before = placement.before {
            guard let (section, item) = locate(before, in: sections) else {
                throw .patch(operation, "'before' names no cell of the list: '\(before)'")
            }
            if let named = placement.section, named != sections[section].id {
                throw .patch(operation, "cell '\(before)' is in section '\(sections[section].id)', not in '\(named)'")
            }
            return (section, item)
        }
        guard let named = placement.section else { throw .patch(operation, "give a 'section', a 'before', or both") }
        guard let section = sections.firstIndex(where: { $0.id == named }) else {
            throw .patch(operation, "no section '\(named)' in the list (its sections: \(sections.map { "'\($0.id)'" }.joined(separator: ", ")))")
        }
        return (section, sections[section].items.count)
    }
}
