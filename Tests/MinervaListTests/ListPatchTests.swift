import MinervaJSON
import MinervaList
import Testing
import TestSupport

/// List patches: cells deleted, upserted and moved by id, in that order, each on what the ones
/// before it left; refusals name the operation and change nothing.
@Suite struct ListPatchTests {
    let menu = list([("mains", ["a", "b", "c"]), ("desserts", ["x", "y"])])

    func applied(_ patch: ListPatch) throws -> [(String, [String])] {
        try patch.applied(to: try ListContent(sections: menu)).map { ($0.id, $0.items.map(\.id)) }
    }

    func cell(_ id: String, _ content: String = "new") -> Cell {
        Cell(id: id, kind: "row", content: .string(content))
    }

    @Test func anUpsertOfACellInTheListReplacesItWhereItIs() throws {
        let sections = try ListPatch(upsert: [.init(cell: cell("b", "sold out"), placement: nil)]).applied(to: try ListContent(sections: menu))
        #expect(sections.map { $0.items.map(\.id) } == [["a", "b", "c"], ["x", "y"]])
        #expect(sections[0].items[1].content == CellContent(.string("sold out")))
        // The same content as a PUT of the result makes the same diff: one updated cell.
        let diff = ListDiff(from: try ListContent(sections: menu), to: try ListContent(sections: sections), fromVersion: 1, toVersion: 2)
        #expect(diff.updatedItems.count == 1 && diff.insertedItems.isEmpty && diff.movedItems.isEmpty && diff.deletedItems.isEmpty)
    }

    @Test func placesAreASectionsEndOrBeforeACell() throws {
        let end = try applied(ListPatch(upsert: [.init(cell: cell("n"), placement: .init(section: "desserts", before: nil))]))
        #expect(end.map(\.1) == [["a", "b", "c"], ["x", "y", "n"]])
        let before = try applied(ListPatch(upsert: [.init(cell: cell("n"), placement: .init(section: nil, before: "a"))]))
        #expect(before.map(\.1) == [["n", "a", "b", "c"], ["x", "y"]])
        let both = try applied(ListPatch(move: [.init(id: "x", placement: .init(section: "mains", before: "c"))]))
        #expect(both.map(\.1) == [["a", "b", "x", "c"], ["y"]])
        let later = try applied(ListPatch(move: [.init(id: "a", placement: .init(section: nil, before: "c"))]))
        #expect(later.map(\.1) == [["b", "a", "c"], ["x", "y"]])
    }

    @Test func deletionsThenUpsertsThenMovesEachOnWhatTheOnesBeforeLeft() throws {
        // "b" is deleted first, so the upsert of "b" adds it anew (at the desserts' end), and the
        // move then puts "y" before it.
        let result = try applied(
            ListPatch(
                delete: ["b"], upsert: [.init(cell: cell("b"), placement: .init(section: "desserts", before: nil))],
                move: [.init(id: "y", placement: .init(section: nil, before: "b"))]))
        #expect(result.map(\.1) == [["a", "c"], ["x", "y", "b"]])
    }

    @Test(arguments: [
        (ListPatch(delete: ["q"]), "delete[0]: no cell 'q' in the list"),
        (ListPatch(delete: ["a", "a"]), "delete[1]: no cell 'a' in the list"),
        (ListPatch(upsert: [.init(cell: Cell(id: "q", kind: "row", content: JSONValue.null), placement: nil)]),
         "upsert[0]: cell 'q' is not in the list: a new cell needs a 'section' or a 'before'"),
        (ListPatch(move: [.init(id: "a", placement: .init(section: "drinks", before: nil))]),
         "move[0]: no section 'drinks' in the list (its sections: 'mains', 'desserts')"),
        (ListPatch(move: [.init(id: "a", placement: .init(section: "desserts", before: "b"))]),
         "move[0]: cell 'b' is in section 'mains', not in 'desserts'"),
        (ListPatch(move: [.init(id: "a", placement: .init(section: nil, before: "a"))]), "move[0]: cell 'a' cannot go before itself"),
        (ListPatch(move: [.init(id: "a", placement: .init(section: nil, before: "q"))]), "move[0]: 'before' names no cell of the list: 'q'"),
    ])
    func aPatchTheListCannotTakeIsRefusedNamingTheOperation(patch: ListPatch, message: String) throws {
        let content = try ListContent(sections: menu)
        #expect { try patch.applied(to: content) } throws: { ($0 as? ListError)?.description == message }
    }

    @Test func aPatchOfMoreOperationsThanTheMostIsRefused() throws {
        let many = ListPatch(upsert: (0..<ListPatch.maximumOperations).map { .init(cell: cell("n\($0)"), placement: .init(section: "mains", before: nil)) })
        #expect(try many.applied(to: try ListContent(sections: menu)).first?.items.count == 3 + ListPatch.maximumOperations)
        let tooMany = ListPatch(delete: ["a"], upsert: many.upsert)
        #expect { try tooMany.applied(to: try ListContent(sections: self.menu)) } throws: {
            ($0 as? ListError)?.description == "the patch holds 1001 operations; at most 1000 are allowed: PUT the list instead"
        }
    }

    /// Random patches on random lists: every deleted cell is gone unless upserted again, every
    /// upserted cell holds its content, every placed cell stands where its place says, and the
    /// cells nobody named keep their order and their sections.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func randomPatchesDoWhatTheySay(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        var applied = 0
        for _ in 0..<400 {
            let ids = (0..<Int.random(in: 0..<8, using: &random)).map { "c\($0)" }.shuffled(using: &random)
            let split = Int.random(in: 0...ids.count, using: &random)
            let sections = list([("s", Array(ids[..<split])), ("t", Array(ids[split...]))])
            let pick = { (random: inout SeededGenerator) in "c\(Int.random(in: 0..<10, using: &random))" }
            let place = { (random: inout SeededGenerator) -> ListPatch.Placement in
                let before = Bool.random(using: &random) ? pick(&random) : nil
                return ListPatch.Placement(section: before == nil || Bool.random(using: &random) ? ["s", "t"].randomElement(using: &random) : nil, before: before)
            }
            let deleted = Bool.random(using: &random) ? [pick(&random)] : []
            let upserted = Bool.random(using: &random) ? [ListPatch.Upsert(cell: Cell(id: pick(&random), kind: "row", content: .string("v")), placement: Bool.random(using: &random) ? place(&random) : nil)] : []
            let moved = Bool.random(using: &random) ? [ListPatch.Move(id: pick(&random), placement: place(&random))] : []
            guard !(deleted.isEmpty && upserted.isEmpty && moved.isEmpty) else { continue }  // refused: no operation
            let patch = ListPatch(delete: deleted, upsert: upserted, move: moved)
            guard let result = try? patch.applied(to: try ListContent(sections: sections)) else { continue }
            applied += 1
            _ = try ListContent(sections: result)  // ids stay unique
            let flat = result.flatMap { section in section.items.map { (section.id, $0) } }
            let named = Set(deleted + upserted.map(\.cell.id) + moved.map(\.id))
            for id in deleted where !upserted.contains(where: { $0.cell.id == id }) { #expect(!flat.contains { $0.1.id == id }) }
            for upsert in upserted { #expect(flat.contains { $0.1 == upsert.cell }) }
            // The last placement stands where it says (a move comes after every upsert).
            let last = moved.last.flatMap { move in move.placement.map { (move.id, $0) } }
                ?? upserted.last.flatMap { upsert in upsert.placement.map { (upsert.cell.id, $0) } }
            if let (id, placement) = last {
                let index = try #require(flat.firstIndex { $0.1.id == id })
                if let before = placement.before {
                    #expect(flat[index + 1].1.id == before)
                } else {
                    #expect(flat[index].0 == placement.section && (index + 1 == flat.count || flat[index + 1].0 != flat[index].0))
                }
            }
            let untouched = { (rows: [(String, Cell)]) in rows.filter { !named.contains($0.1.id) }.map { "\($0.0)/\($0.1.id)" } }
            #expect(untouched(flat) == untouched(sections.flatMap { section in section.items.map { (section.id, $0) } }))
        }
        #expect(applied > 60)
    }
}
