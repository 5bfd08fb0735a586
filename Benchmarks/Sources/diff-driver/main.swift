// diff-driver N VARIANT IMPL [ITERATIONS]
//
// Builds the ListDiff benchmark's inputs (N cells, VARIANT single|sectioned), then runs IMPL
// ITERATIONS times (default 1) and prints one line of counts. For instruction counts, run it
// under valgrind's callgrind with ITERATIONS 0 and k: the difference of the two totals, over k,
// is one diff (input building and process start-up cancel out). run-model.sh does that.
//
// IMPL:
//   minerva       ListDiff(from:to:fromVersion:toVersion:) on validated contents
//   minerva-validate  ListContent(sections:) of the new version (id checks and the id map the
//                 diff reads), then the diff: what a PUT costs before its JSON
//   minerva-json  the same, then diff.write(into:) with a JSONWriter
//   minerva-kept  ListHistory.diff(since:) from the old version to the new one, both kept in a
//                 history, which keeps no id map: the diff builds it (measure against
//                 "minerva-kept 0", which builds the history)
//   content-value      builds the JSONValue content of N cells (what a parsed PUT body holds)
//   content-canonical  the same, then writes each as canonical text (CellContent): minus
//                 content-value, what ListBody adds per cell
//   content-write      the same, then writes each with JSONWriter.value: what writing a cell's
//                 content into a response cost before contents were kept as text
//   stdlib        new.difference(from: old) { $0.id == $1.id }.inferringMoves()
//   stdlib-eq     new.difference(from: old).inferringMoves() (Cell equality)
//   inputs        nothing (prints what the generator did)
//
// With DIFF_SHARED_CONTENT=1 in the environment, cells that are not updated share their
// content's storage with the old list (see DiffInputs.init's sharedContent).
import ListDiffInputs
import MinervaJSON
import MinervaList

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[1]), let variant = DiffVariant(rawValue: arguments[2]) else {
    print("usage: diff-driver N single|sectioned minerva|minerva-validate|minerva-json|minerva-kept|stdlib|stdlib-eq|inputs [ITERATIONS]")
    exit(2)
}
let implementation = arguments[3]
let iterations = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1

let sharedContent = getenv("DIFF_SHARED_CONTENT").map { String(cString: $0) == "1" } ?? false
let inputs = DiffInputs(count: count, variant: variant, sharedContent: sharedContent)
var summary = "n=\(count) variant=\(variant.rawValue) impl=\(implementation) iterations=\(iterations) shared_content=\(sharedContent)"
summary += " generated: deleted=\(inputs.deleted) inserted=\(inputs.inserted) moved=\(inputs.moved)"
summary += " across=\(inputs.movedAcrossSections) updated=\(inputs.updated)"

switch implementation {
case "minerva":
    var diff = ListDiff(from: 0, to: 0)
    var checksum = 0
    for _ in 0..<iterations {
        diff = ListDiff(from: inputs.old, to: inputs.new, fromVersion: 1, toVersion: 2)
        checksum &+= diff.movedItems.count
    }
    summary += " checksum=\(checksum)"
    if iterations > 0 {
        summary += " reported: deleted=\(diff.deletedItems.count) inserted=\(diff.insertedItems.count)"
        summary += " moves=\(diff.movedItems.count) updated=\(diff.updatedItems.count)"
    }
case "minerva-validate":
    var moves = 0
    var checksum = 0
    for _ in 0..<iterations {
        let new = try! ListContent(sections: inputs.new.sections)
        let diff = ListDiff(from: inputs.old, to: new, fromVersion: 1, toVersion: 2)
        moves = diff.movedItems.count
        checksum &+= moves
    }
    summary += " checksum=\(checksum)"
    if iterations > 0 { summary += " reported: moves=\(moves)" }
case "minerva-json":
    var bytes = 0
    var moves = 0
    for _ in 0..<iterations {
        let diff = ListDiff(from: inputs.old, to: inputs.new, fromVersion: 1, toVersion: 2)
        var writer = JSONWriter(capacity: 128)
        diff.write(into: &writer)
        bytes &+= writer.bytes.count
        moves = diff.movedItems.count
    }
    if iterations > 0 { summary += " reported: moves=\(moves) json_bytes=\(bytes / iterations)" }
case "minerva-kept":
    var history = ListHistory(content: inputs.old)
    history.replace(with: inputs.new)
    history.replace(with: inputs.new)
    var moves = 0
    for _ in 0..<iterations {
        guard case .diff(let diff) = try! history.diff(since: 1) else { fatalError("version 1 is kept") }
        moves = diff.movedItems.count
    }
    if iterations > 0 { summary += " reported: moves=\(moves)" }
case "content-value", "content-canonical", "content-write":
    var checksum = 0
    var writer = JSONWriter(capacity: 64 * count)
    for _ in 0..<iterations {
        writer = JSONWriter(capacity: 64 * count)
        for number in 0..<count {
            let value = DiffInputs.content(number, revision: 0)
            if implementation == "content-canonical" {
                checksum &+= CellContent(value).json.count
            } else if implementation == "content-write" {
                writer.value(value)
            } else if case .object(let members) = value {
                checksum &+= members.count
            }
        }
    }
    summary += " checksum=\(checksum) written=\(writer.bytes.count)"
case "stdlib", "stdlib-eq":
    var difference = CollectionDifference<Cell>([])!
    var checksum = 0
    for _ in 0..<iterations {
        difference = implementation == "stdlib" ? standardLibraryDiff(inputs) : standardLibraryDiffByEquality(inputs)
        checksum &+= difference.count
    }
    summary += " checksum=\(checksum)"
    if iterations > 0 {
        summary += " reported: removals=\(difference.removals.count) insertions=\(difference.insertions.count)"
        summary += " moves=\(inferredMoveCount(difference))"
    }
case "inputs":
    break
default:
    print("unknown IMPL \(implementation)")
    exit(2)
}
print(summary)
