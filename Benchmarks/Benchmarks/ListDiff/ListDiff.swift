// List diff benchmarks: Minerva's ListDiff against the standard library's
// difference(from:).inferringMoves() on the same inputs; Minerva's diff with the validation of the
// new content before it (ListContent(sections:), which builds the id map the diff reads); and
// Minerva's diff followed by its JSON.
//
// Inputs (ListDiffInputs, built once per benchmark before the measured closure): 1k, 10k and 100k
// cells `c<n>` of kind `row` with a small JSON object as content, in one section or in ten; the
// new version has 10% of the cells deleted, 10% inserted, 10% moved to random positions (in the
// sectioned variant 10% of those moves go to another section) and 10% updated. A seeded
// generator makes the same lists on every run. Every cell of the new version is built afresh (as
// the server parses a PUT body), so an unchanged cell's content is compared member by member.
//
// The standard library's diff compares cells by id (`difference(from:by:)`), so that an updated
// cell that stays put is no change, as in Minerva's match by id; it runs on the cells of all
// sections as one flat array. It is left out at 100k: Myers' algorithm takes O(N·D) for D ≈ 0.4 N
// edits; its instruction count grows 61× from 1k to 10k (5·10⁹ per diff at 10k), which puts one
// 100k diff near 3·10¹¹ instructions, about half a minute.
//
// Custom metric `moves`: the moves each diff reports (the same number on every iteration).
//   swift package --package-path Benchmarks benchmark --target ListDiff
import Benchmark
import ListDiffInputs
import MinervaJSON
import MinervaList

let benchmarks: @Sendable () -> Void = {
    let moves = BenchmarkMetric.custom("moves", polarity: .prefersSmaller, useScalingFactor: false)
    var metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, moves]
    // Hardware counters: package-benchmark reads them through perf events; on a machine without
    // them (`perf stat -e instructions true` says "not supported") run-model.sh counts
    // instructions with callgrind and diff-driver instead.
    if ProcessEnvironment.has("BENCHMARK_INSTRUCTIONS") { metrics.append(.instructions) }

    func configuration(slow: Bool = false) -> Benchmark.Configuration {
        .init(
            metrics: metrics,
            timeUnits: .microseconds,
            units: [.mallocCountTotal: .count, moves: .count],
            warmupIterations: slow ? 1 : 3,
            maxDuration: .seconds(slow ? 4 : 2),
            maxIterations: slow ? 20 : 1000)
    }

    for variant in DiffVariant.allCases {
        for count in [1000, 10_000, 100_000] {
            let label = "\(count / 1000)k \(variant.rawValue)"
            // Built once, by the setup hook of the first benchmark of this size and variant that
            // runs (the process registers every benchmark, but only the filtered ones run).
            let inputs = LazyInputs(count: count, variant: variant)
            let setup: Benchmark.BenchmarkSetupHook = { _ = inputs.value }

            Benchmark("Minerva diff \(label)", configuration: configuration()) { benchmark in
                let inputs = inputs.value
                benchmark.startMeasurement()
                let diff = ListDiff(from: inputs.old, to: inputs.new, fromVersion: 1, toVersion: 2)
                benchmark.stopMeasurement()
                benchmark.measurement(moves, diff.movedItems.count)
                blackHole(diff)
            } setup: {
                try await setup()
            }

            // What a PUT costs before the JSON: checking the new content's ids (which builds the
            // id → position map the diff then reads) and the diff. This is the figure to compare
            // with diffs that start from plain arrays (the standard library's, DifferenceKit's).
            Benchmark("Minerva validate+diff \(label)", configuration: configuration()) { benchmark in
                let inputs = inputs.value
                benchmark.startMeasurement()
                let new = try! ListContent(sections: inputs.new.sections)
                let diff = ListDiff(from: inputs.old, to: new, fromVersion: 1, toVersion: 2)
                benchmark.stopMeasurement()
                benchmark.measurement(moves, diff.movedItems.count)
                blackHole(diff)
            } setup: {
                try await setup()
            }

            Benchmark("Minerva diff+JSON \(label)", configuration: configuration()) { benchmark in
                let inputs = inputs.value
                benchmark.startMeasurement()
                let diff = ListDiff(from: inputs.old, to: inputs.new, fromVersion: 1, toVersion: 2)
                var writer = JSONWriter(capacity: 128)
                diff.write(into: &writer)
                benchmark.stopMeasurement()
                benchmark.measurement(moves, diff.movedItems.count)
                blackHole(writer.bytes)
            } setup: {
                try await setup()
            }

            if count <= 10_000 {
                Benchmark("stdlib difference+inferringMoves \(label)", configuration: configuration(slow: count >= 10_000)) {
                    benchmark in
                    let inputs = inputs.value
                    benchmark.startMeasurement()
                    let difference = standardLibraryDiff(inputs)
                    benchmark.stopMeasurement()
                    benchmark.measurement(moves, inferredMoveCount(difference))
                    blackHole(difference)
                } setup: {
                    try await setup()
                }
            }
        }
    }
}

/// Inputs built on first use and kept for the rest of the process.
final class LazyInputs: @unchecked Sendable {
    private let count: Int
    private let variant: DiffVariant
    private var built: DiffInputs?

    init(count: Int, variant: DiffVariant) {
        self.count = count
        self.variant = variant
    }

    /// Benchmarks run one at a time on one thread, so no lock is needed.
    var value: DiffInputs {
        if let built { return built }
        let made = DiffInputs(count: count, variant: variant)
        built = made
        return made
    }
}

enum ProcessEnvironment {
    static func has(_ name: String) -> Bool {
        getenv(name) != nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
