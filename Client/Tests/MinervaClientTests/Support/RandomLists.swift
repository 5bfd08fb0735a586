import MinervaClient
import OpenAPIRuntime

/// A seeded generator (SplitMix64), so that a failing random case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random lists of a few sections and cells, drawn from small pools of ids and contents so
/// that consecutive lists share many sections and cells: moves, updates, deletes and inserts
/// of both all happen.
enum RandomLists {
    typealias Cell = ListItem

    /// A patch of a list's cells, valid or not: a cell of the list (or now and then one it does
    /// not hold) deleted, upserted in place or at a place, or moved to a section (of the list, or
    /// one it does not have) or before a cell.
    static func patch(of sections: [ListSection], using generator: inout SeededGenerator) -> ListPatch {
        let ids = sections.flatMap { $0.items.map(\.id) } + ["c99"]
        let pick = { (generator: inout SeededGenerator) in ids.randomElement(using: &generator)! }
        let section = { (generator: inout SeededGenerator) in (sections.map(\.id) + ["s9"]).randomElement(using: &generator)! }
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return ListPatch(delete: [pick(&generator)])
        case 1: return ListPatch(upsert: [.init(cell: Cell(id: pick(&generator), kind: "row", content: .string("patched")))])
        case 2:
            let cell = Cell(id: "c\(Int.random(in: 0..<40, using: &generator))", kind: "row", content: .string("new"))
            return ListPatch(upsert: [Bool.random(using: &generator) ? .init(cell: cell, section: section(&generator)) : .init(cell: cell, before: pick(&generator))])
        default:
            let id = pick(&generator)
            return ListPatch(move: [Bool.random(using: &generator) ? .init(id: id, section: section(&generator)) : .init(id: id, before: pick(&generator))])
        }
    }

    /// A list of up to 4 sections (ids `s0`…`s5`) holding up to 24 cells (ids `c0`…`c29`,
    /// unique in the list), each showing one of three contents.
    static func list(using generator: inout SeededGenerator) -> [ListSection] {
        let sectionIDs = (0..<6).map { "s\($0)" }.shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator))
        var cellIDs = (0..<30).map { "c\($0)" }.shuffled(using: &generator)[...]
        return sectionIDs.map { id in
            let count = Int.random(in: 0...6, using: &generator)
            let cells = cellIDs.prefix(count).map { cellID in
                Cell(id: cellID, kind: "row", content: .string(["a", "b", "c"].randomElement(using: &generator)!))
            }
            cellIDs = cellIDs.dropFirst(count)
            return ListSection(id: id, items: cells)
        }
    }

    /// The list as a `PUT` states it.
    static func input(_ sections: [ListSection]) -> [ListSection] {
        sections.map { section in
            ListSection(id: section.id, items: section.items.map { ListItem(id: $0.id, kind: $0.kind, content: $0.content) })
        }
    }
}
