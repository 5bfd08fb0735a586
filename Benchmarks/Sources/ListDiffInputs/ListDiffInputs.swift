// The inputs of the list-diff benchmarks: an old list of N cells and a new version of it with
// 10% of the cells deleted, 10% inserted, 10% moved to random positions and 10% updated (content
// changed), from a seeded generator, so that every run and every program (the ListDiff suite,
// diff-driver) diffs the same lists.
public import MinervaJSON
public import MinervaList

/// SplitMix64: a small, fast, seeded generator (the same sequence on every platform).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The shape of the lists.
public enum DiffVariant: String, Sendable, CaseIterable {
    /// One section of N cells.
    case single
    /// Ten sections of N/10 cells; 10% of the moved cells go to another section.
    case sectioned
}

/// An old list and its new version, as Minerva's `ListContent` and as flat arrays of cells (all
/// sections one after the other) for the standard library's `difference(from:)`.
public struct DiffInputs: Sendable {
    public let count: Int
    public let variant: DiffVariant
    public let old: ListContent
    public let new: ListContent
    public let oldCells: [Cell]
    public let newCells: [Cell]
    /// What the generator did, to check the diffs against.
    public let deleted: Int
    public let inserted: Int
    public let moved: Int
    public let movedAcrossSections: Int
    public let updated: Int

    /// Builds the inputs for `count` cells.
    /// - Parameters:
    ///   - count: cells in the old list (a multiple of 10 for `sectioned`).
    ///   - variant: one section or ten.
    ///   - seed: the generator's seed; the default is what every benchmark uses.
    ///   - sharedContent: whether a cell that is not updated shares its content's storage with the
    ///     old list (comparing it is then a pointer check). The default, `false`, builds every new
    ///     cell afresh, as the server does when it parses a PUT body, so that every surviving cell's
    ///     content is compared member by member.
    public init(count: Int, variant: DiffVariant, seed: UInt64 = 0x5EED_0000 ^ 2024, sharedContent: Bool = false) {
        var random = SplitMix64(seed: seed &+ UInt64(count) &* 31 &+ (variant == .single ? 0 : 7))
        self.count = count
        self.variant = variant
        let sectionCount = variant == .single ? 1 : 10
        let perSection = count / sectionCount

        // Old: c0 … c(N-1), section by section.
        var oldSections: [[Cell]] = []
        var sectionOf = [Int](repeating: 0, count: count)
        var indexInSection = [Int](repeating: 0, count: count)
        for section in 0..<sectionCount {
            var cells: [Cell] = []
            cells.reserveCapacity(perSection)
            for item in 0..<perSection {
                let number = section * perSection + item
                cells.append(Self.cell(number, revision: 0))
                sectionOf[number] = section
                indexInSection[number] = item
            }
            oldSections.append(cells)
        }
        let total = sectionCount * perSection

        // Pick disjoint sets of cells to delete, move and update (10% of N each).
        var order = Array(0..<total)
        order.shuffle(using: &random)
        let tenth = total / 10
        let deletedSet = Set(order[0..<tenth])
        let movedList = Array(order[tenth..<(2 * tenth)])
        let movedSet = Set(movedList)
        let updatedSet = Set(order[(2 * tenth)..<(3 * tenth)])

        // Every cell of the new version gets a section and a sort key: cells that stay keep their
        // old index as key (so their order holds); moved and inserted ones get a random key.
        struct Placed {
            var key: Double
            var cell: Cell
        }
        var newSections = [[Placed]](repeating: [], count: sectionCount)
        var across = 0
        var movedIndex = 0
        for number in 0..<total where !deletedSet.contains(number) {
            let updated = updatedSet.contains(number)
            let cell =
                updated
                ? Self.cell(number, revision: 1)
                : sharedContent ? oldSections[sectionOf[number]][indexInSection[number]] : Self.cell(number, revision: 0)
            if movedSet.contains(number) {
                var section = sectionOf[number]
                // 10% of the moves go to another section.
                if sectionCount > 1, movedIndex % 10 == 0 {
                    section = (section + 1 + Int.random(in: 0..<(sectionCount - 1), using: &random)) % sectionCount
                    across += 1
                }
                movedIndex += 1
                newSections[section].append(Placed(key: Double.random(in: 0..<Double(perSection), using: &random), cell: cell))
            } else {
                newSections[sectionOf[number]].append(Placed(key: Double(indexInSection[number]), cell: cell))
            }
        }
        for number in total..<(total + tenth) {
            let section = Int.random(in: 0..<sectionCount, using: &random)
            newSections[section].append(Placed(key: Double.random(in: 0..<Double(perSection), using: &random), cell: Self.cell(number, revision: 0)))
        }
        let newCellSections = newSections.map { placed in placed.sorted { $0.key < $1.key }.map(\.cell) }

        func content(_ sections: [[Cell]]) -> ListContent {
            try! ListContent(sections: sections.enumerated().map { ListSection(id: "s\($0.offset)", items: $0.element) })
        }
        old = content(oldSections)
        new = content(newCellSections)
        oldCells = oldSections.flatMap { $0 }
        newCells = newCellSections.flatMap { $0 }
        deleted = tenth
        inserted = tenth
        moved = movedList.count
        movedAcrossSections = across
        updated = updatedSet.count
    }

    /// Cell `c<number>`: kind `row`, content a small JSON object; `revision` changes the content.
    public static func cell(_ number: Int, revision: Int) -> Cell {
        Cell(id: "c\(number)", kind: "row", content: content(number, revision: revision))
    }

    /// The content of cell `c<number>`, as a parsed body holds it.
    public static func content(_ number: Int, revision: Int) -> JSONValue {
        .object([
            "title": .string("Row \(number)"),
            "subtitle": .string(revision == 0 ? "unchanged" : "edited"),
            "count": .int(number * 2 + revision),
        ])
    }
}

/// Moves that the standard library's diff reports after `inferringMoves()`: insertions with an
/// associated removal.
public func inferredMoveCount(_ difference: CollectionDifference<Cell>) -> Int {
    var moves = 0
    for change in difference.insertions {
        if case .insert(_, _, let associatedWith) = change, associatedWith != nil { moves += 1 }
    }
    return moves
}

/// The standard library's diff as the benchmarks run it: cells matched by id (so an updated cell
/// that stays is no change, like Minerva's match by id), then `inferringMoves()`, which pairs a
/// removal and an insertion of equal cells (an updated cell that moved stays a removal and an
/// insertion).
public func standardLibraryDiff(_ inputs: DiffInputs) -> CollectionDifference<Cell> {
    inputs.newCells.difference(from: inputs.oldCells) { $0.id == $1.id }.inferringMoves()
}

/// The standard library's diff by `Cell` equality (id, kind and content), for comparison of the
/// moves it reports.
public func standardLibraryDiffByEquality(_ inputs: DiffInputs) -> CollectionDifference<Cell> {
    inputs.newCells.difference(from: inputs.oldCells).inferringMoves()
}
