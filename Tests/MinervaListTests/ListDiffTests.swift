import MinervaJSON
import MinervaList
import Testing
import TestSupport

func list(_ sections: [(String, [String])]) -> [ListSection] {
    sections.map { ListSection(id: $0.0, items: $0.1.map { Cell(id: $0, kind: "row", content: .string($0)) }) }
}

func diff(_ old: [ListSection], _ new: [ListSection]) throws -> ListDiff {
    ListDiff(from: try ListContent(sections: old), to: try ListContent(sections: new), fromVersion: 1, toVersion: 2)
}

/// Checks the three properties: the diff applies to exactly the new list, its moves are the
/// fewest possible, and every content change is reported.
func verify(_ old: [ListSection], _ new: [ListSection], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try diff(old, new)
    let applied = apply(result, to: old, new: new)
    #expect(applied == new, "applying the diff does not give the new list", sourceLocation: sourceLocation)
    let minimal = minimalMoves(from: old, to: new)
    #expect(result.movedSections.count == minimal.sections, sourceLocation: sourceLocation)
    #expect(result.movedItems.count == minimal.items, sourceLocation: sourceLocation)
    #expect(Set(result.updatedItems).count == result.updatedItems.count, sourceLocation: sourceLocation)
}

@Suite struct ListDiffTests {
    @Test func theExampleOfTheContract() throws {
        // old A, B, C; new B, C, D: A deleted, D inserted; B lost its item 4 and gained a first
        // item; C's item 2 moved to B at index 1; B's item 3 changed.
        let old = list([("A", ["a0"]), ("B", ["b0", "b1", "b2", "b3", "b4"]), ("C", ["c0", "c1", "c2"])])
        var newB = list([("B", ["new", "c2", "b0", "b1", "b2", "b3"])])[0].items
        newB[5] = Cell(id: "b3", kind: "row", content: "changed")
        let new = [ListSection(id: "B", items: newB), list([("C", ["c0", "c1"]), ("D", ["d0"])])[0], list([("D", ["d0"])])[0]]
        let result = try diff(old, new)
        #expect(result.deletedSections == [0])
        #expect(result.insertedSections == [2])
        #expect(result.movedSections.isEmpty)
        #expect(result.deletedItems == [.init(section: 1, item: 4)])
        #expect(result.insertedItems == [.init(section: 0, item: 0)])
        #expect(result.movedItems == [.init(from: .init(section: 2, item: 2), to: .init(section: 0, item: 1))])
        #expect(result.updatedItems == [.init(section: 1, item: 3)])
        try verify(old, new)
    }

    @Test func shiftsAreNotMoves() throws {
        let result = try diff(list([("s", ["a", "b", "c"])]), list([("s", ["x", "a", "c", "y"])]))
        #expect(result.movedItems.isEmpty)
        #expect(result.insertedItems.map(\.item) == [0, 3])
        #expect(result.deletedItems.map(\.item) == [1])
    }

    @Test func reversingMovesAllButOne() throws {
        let items = (0..<10).map { "i\($0)" }
        let result = try diff(list([("s", items)]), list([("s", items.reversed())]))
        #expect(result.movedItems.count == 9)
        try verify(list([("s", items)]), list([("s", items.reversed())]))
    }

    @Test func edgeCases() throws {
        try verify([], [])
        try verify([], list([("a", ["1", "2"]), ("b", [])]))
        try verify(list([("a", ["1", "2"]), ("b", [])]), [])
        try verify(list([("a", ["1", "2"])]), list([("b", ["1", "2"])]))      // cells leave for an inserted section
        try verify(list([("a", ["1"]), ("b", ["2"])]), list([("b", ["2", "1"])]))  // cell arrives from a deleted section
        try verify(list([("a", []), ("b", []), ("c", [])]), list([("c", []), ("b", []), ("a", [])]))
        let unchanged = try diff(list([("a", ["1"])]), list([("a", ["1"])]))
        #expect(unchanged.isEmpty)
    }

    @Test func contentsCompareAsJSONValues() throws {
        let old = [ListSection(id: "s", items: [Cell(id: "1", kind: "k", content: ["a": 1, "b": [1.0, "x"]])])]
        let same = [ListSection(id: "s", items: [Cell(id: "1", kind: "k", content: ["b": [1, "x"], "a": 1.0])])]
        #expect(try diff(old, same).isEmpty)
        let kind = [ListSection(id: "s", items: [Cell(id: "1", kind: "other", content: ["a": 1, "b": [1.0, "x"]])])]
        #expect(try diff(old, kind).updatedItems == [.init(section: 0, item: 0)])
    }

    /// Contents as a PUT body spells them: key order and number spelling don't make an update;
    /// a changed value does, and so does text in another Unicode normalisation (JSON compares
    /// strings by their code points).
    @Test(arguments: [
        (#"{"name": "Ada", "followers": 3, "tags": [1, 2.5]}"#, #"{"tags": [1.0, 25e-1], "followers": 3.0, "name": "Ada"}"#, false),
        (#"{"x": 0, "y": 1e2}"#, #"{"y": 100, "x": -0.0}"#, false),
        (#"{"name": "Zo\u00eb"}"#, "{\"name\": \"Zoe\u{308}\"}", true),
        (#"{"n": 9007199254740993}"#, #"{"n": 9007199254740993.0}"#, true),
        (#"{"name": "Ada"}"#, #"{"name": "Ada", "extra": null}"#, true),
        (#"[1, 2]"#, #"[2, 1]"#, true),
    ])
    func contentsCompareByCanonicalText(old: String, new: String, updated: Bool) throws {
        func cell(_ text: String) throws -> [ListSection] {
            [ListSection(id: "s", items: [Cell(id: "1", kind: "k", content: CellContent(try JSONParser.parse(Array(text.utf8))))])]
        }
        let result = try diff(try cell(old), try cell(new))
        #expect(result.updatedItems == (updated ? [.init(section: 0, item: 0)] : []))
        #expect(result.deletedItems.isEmpty && result.insertedItems.isEmpty && result.movedItems.isEmpty)
    }

    @Test func duplicatesAndEmptyIDsAreRefused() {
        #expect(throws: ListError.self) { try ListContent(sections: list([("a", []), ("a", [])])) }
        #expect(throws: ListError.self) { try ListContent(sections: list([("a", ["1"]), ("b", ["1"])])) }
        #expect(throws: ListError.self) { try ListContent(sections: list([("", [])])) }
        #expect(throws: ListError.self) { try ListContent(sections: list([("a", [""])])) }
        #expect(throws: ListError.self) { try ListContent(sections: list([("a", ["1", "2", "3"])]), maximumItems: 2) }
    }

    /// Thousands of random old/new pairs: inserts, deletes, moves within and across sections,
    /// section inserts, deletes and moves, content updates.
    @Test(arguments: 0..<8)
    func randomPairs(seed: Int) throws {
        var random = SeededGenerator(state: UInt64(seed) &* 7919)
        for _ in 0..<400 {
            let sectionCount = Int.random(in: 0...5, using: &random)
            var nextID = 0
            var old: [ListSection] = []
            for section in 0..<sectionCount {
                let items = (0..<Int.random(in: 0...8, using: &random)).map { _ -> Cell in
                    nextID += 1
                    return Cell(id: "c\(nextID)", kind: "row", content: .int(Int.random(in: 0..<3, using: &random)))
                }
                old.append(ListSection(id: "s\(section)", items: items))
            }
            // Sections: drop some, add some, shuffle.
            var newSections = old.filter { _ in Int.random(in: 0..<5, using: &random) > 0 }.map(\.id)
            for extra in 0..<Int.random(in: 0...2, using: &random) { newSections.append("n\(extra)") }
            newSections.shuffle(using: &random)
            if Bool.random(using: &random) { newSections.sort() }
            // Cells: keep most, drop some, add some, redistribute some across sections.
            var pool = old.flatMap(\.items).filter { _ in Int.random(in: 0..<6, using: &random) > 0 }
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                nextID += 1
                pool.append(Cell(id: "c\(nextID)", kind: "row", content: 0))
            }
            pool = pool.map { cell in
                Int.random(in: 0..<5, using: &random) == 0 ? Cell(id: cell.id, kind: cell.kind, content: .int(Int.random(in: 3..<6, using: &random))) : cell
            }
            var buckets = [[Cell]](repeating: [], count: max(1, newSections.count))
            let homes = Dictionary(uniqueKeysWithValues: old.flatMap { section in section.items.map { ($0.id, section.id) } })
            for cell in pool {
                var bucket = Int.random(in: 0..<buckets.count, using: &random)
                if Int.random(in: 0..<4, using: &random) > 0, let home = homes[cell.id], let index = newSections.firstIndex(of: home) {
                    bucket = index
                }
                buckets[bucket].append(cell)
            }
            for index in buckets.indices where Int.random(in: 0..<3, using: &random) == 0 {
                // a few local swaps: small moves within a section
                if buckets[index].count > 1 { buckets[index].swapAt(0, buckets[index].count - 1) }
            }
            let new = newSections.enumerated().map { ListSection(id: $1, items: buckets[$0]) }
            try verify(old, new)
            let result = try diff(old, new)
            // every content change of a cell that survives (same id, surviving sections both ends) is reported
            let oldCells = Dictionary(uniqueKeysWithValues: old.enumerated().flatMap { s, section in section.items.enumerated().map { ($1.id, (s, $0, $1)) } })
            let newSectionIDs = Set(new.map(\.id))
            var expectedUpdates = Set<ListDiff.Position>()
            for section in new where old.contains(where: { $0.id == section.id }) {
                for cell in section.items {
                    if let (s, i, before) = oldCells[cell.id], newSectionIDs.contains(old[s].id), before != cell {
                        expectedUpdates.insert(.init(section: s, item: i))
                    }
                }
            }
            #expect(Set(result.updatedItems) == expectedUpdates)
        }
    }
}

@Suite struct ListHistoryTests {
    func content(_ ids: [String]) throws -> ListContent {
        try ListContent(sections: list([("s", ids)]))
    }

    @Test func versionsDiffsAndReload() throws {
        var history = ListHistory(content: try content(["a"]), retainedVersions: 3)
        #expect(history.version == 1)
        #expect(history.latestDiff.insertedSections == [0])
        for index in 2...6 { history.replace(with: try content((0..<index).map { "i\($0)" })) }
        #expect(history.version == 6)
        #expect(try history.diff(since: 6) == .diff(ListDiff(from: 6, to: 6)))
        guard case .diff(let fromThree) = try history.diff(since: 3) else { Issue.record("expected a diff"); return }
        #expect(fromThree.from == 3 && fromThree.to == 6 && fromThree.insertedItems.count == 3)
        #expect(try history.diff(since: 2) == .reload)
        guard case .diff(let fromZero) = try history.diff(since: 0) else { Issue.record("expected a diff"); return }
        #expect(fromZero.insertedSections == [0])
        #expect(throws: ListError.self) { try history.diff(since: 7) }
        let unchanged = history.replace(with: history.current)
        #expect(unchanged.isEmpty && history.version == 7)
    }

    /// Storage keeps each kept version's content as a record; the history comes back from them.
    @Test func keptVersionsRoundTrip() throws {
        var history = ListHistory(content: try content(["a", "b"]), retainedVersions: 2)
        history.replace(with: try content(["b", "c"]))
        history.replace(with: try ListContent(sections: [ListSection(id: "s", items: [Cell(id: "c", kind: "k", content: ["z": 1.5, "a": [nil, true]])])]))
        history.replace(with: try content(["c", "d"]))
        #expect(history.keptVersions.map(\.version) == [2, 3, 4] && history.oldestKeptVersion == 2)
        var stored: [(version: Int, content: ListContent)] = []
        for (version, content) in history.keptVersions {
            var writer = JSONWriter()
            content.write(into: &writer)
            stored.append((version, try ListContent(snapshot: try JSONParser.parse(writer.bytes))))
        }
        let restored = try ListHistory(keptVersions: stored, retainedVersions: 2)
        #expect(restored.version == history.version && restored.retainedVersions == history.retainedVersions)
        #expect(restored.current == history.current)
        #expect(restored.latestDiff == history.latestDiff)
        for since in 0...4 { #expect(try restored.diff(since: since) == history.diff(since: since)) }
        #expect(throws: ListError.self) { try ListHistory(keptVersions: [], retainedVersions: 2) }
        #expect(throws: ListError.self) { try ListHistory(keptVersions: stored.reversed(), retainedVersions: 2) }
    }

    /// Snapshots stored before cells kept canonical text have the same shape, with contents as
    /// `JSONWriter.value` wrote them (numbers as they arrived).
    @Test func oldSnapshotsRestore() throws {
        let stored = #"""
            {"current":[{"id":"s","items":[{"content":{"a":1.0,"b":"é"},"id":"1","kind":"k"},{"content":null,"id":"2","kind":"k"},{"id":"3","kind":"k"}]}],
             "older":[{"content":[{"id":"s","items":[{"content":{"b":"é","a":1},"id":"1","kind":"k"}]}],"version":1}],"retained":32,"version":2}
            """#
        let history = try ListHistory(snapshot: try JSONParser.parse(Array(stored.utf8)))
        let cells = history.current.sections[0].items
        #expect(cells.map(\.content.description) == [#"{"a":1,"b":"\#u{E9}"}"#, "null", "null"])
        #expect(history.latestDiff.updatedItems.isEmpty && history.latestDiff.insertedItems.count == 2)
    }

    @Test func writesTheContractsJSON() throws {
        var writer = JSONWriter()
        try diff(list([("a", ["1", "2"])]), list([("a", ["2", "1"]), ("b", [])])).write(into: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"from":1,"to":2,"sections":{"deleted":[],"inserted":[1],"moved":[],"updated":[]},"items":{"deleted":[],"inserted":[],"moved":[{"from":{"section":0,"item":1},"to":{"section":0,"item":0}}],"updated":[]}}"#)
    }
}
