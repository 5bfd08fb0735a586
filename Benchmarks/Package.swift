// swift-tools-version:6.1
// Benchmarks for Minerva Server. A package of its own, so that the main package's
// `swift build` and `swift test` never resolve or build Hummingbird.
//   cd Benchmarks && swift build -c release     # builds hummingbird-peer
//   Benchmarks/run-http.sh                      # builds both servers and runs wrk
import PackageDescription

let package = Package(
    name: "minerva-benchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hummingbird-peer", targets: ["hummingbird-peer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Model benchmarks (Benchmarks/run-model.sh, MODEL.md): the main package and the model
        // package by path, package-benchmark and swift-log.
        .package(name: "minerva-server", path: ".."),
        .package(path: "../Model"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The follower benchmark (run-mirror.sh): the Swift client by path.
        .package(name: "minerva-client", path: "../Client"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "hummingbird-peer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),

        // MARK: - Model benchmarks (run-model.sh, MODEL.md)
        // The inputs of the list-diff benchmarks, shared by the ListDiff suite and diff-driver.
        .target(
            name: "ListDiffInputs",
            dependencies: [.product(name: "MinervaList", package: "Model")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // An in-process MinervaAPI and the requests the model benchmarks send it.
        .target(
            name: "InProcessAPI",
            dependencies: [
                .product(name: "MinervaServer", package: "minerva-server"),
                .product(name: "MinervaSessions", package: "minerva-server"),
                .product(name: "MinervaSQLite", package: "minerva-server"),
                .product(name: "MinervaCoordinator", package: "Model"),
                .product(name: "MinervaJSON", package: "Model"),
                .product(name: "MicroHTTP", package: "minerva-server"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // One diff per call, for valgrind's callgrind (instructions) and perf record.
        .executableTarget(
            name: "diff-driver",
            dependencies: ["ListDiffInputs", .product(name: "MinervaList", package: "Model")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // One model operation per call, for callgrind (instructions per operation).
        .executableTarget(
            name: "model-driver",
            dependencies: [
                "InProcessAPI",
                .product(name: "MinervaSessions", package: "minerva-server"),
                .product(name: "MinervaPostgres", package: "minerva-server"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // State-document encoding and list diff time against tree and list size (run-model.sh's
        // growth phase): wall clock per size, and one operation per call for callgrind.
        .executableTarget(
            name: "growth-driver",
            dependencies: [
                "InProcessAPI",
                "ListDiffInputs",
                .product(name: "MinervaServer", package: "minerva-server"),
                .product(name: "MinervaList", package: "Model"),
                .product(name: "MicroHTTP", package: "minerva-server"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // glibc's mallinfo2 and malloc_trim for memory-footprint.
        .target(name: "CMallocInfo"),
        // Resident memory per session and per node, N given on the command line.
        .executableTarget(
            name: "memory-footprint",
            dependencies: [
                "InProcessAPI", "CMallocInfo", .product(name: "MicroHTTP", package: "minerva-server"),
                .product(name: "MinervaSQLite", package: "minerva-server"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // Counts a Swift client's requests and answer bytes (run-mirror.sh, run-prediction.sh).
        .target(
            name: "ClientTraffic",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault")]
        ),
        // A follower by mirror against one that re-reads the state after every change: requests
        // and bytes per change over a scripted session (run-mirror.sh).
        .executableTarget(
            name: "mirror-follower",
            dependencies: ["ClientTraffic", .product(name: "MinervaClient", package: "minerva-client")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // Tap to observed state with prediction (PredictingSession) against without, behind a
        // proxy that delays every round trip (run-prediction.sh).
        .executableTarget(
            name: "prediction-latency",
            dependencies: ["ClientTraffic", .product(name: "MinervaClient", package: "minerva-client")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "ListDiff",
            dependencies: [
                "ListDiffInputs",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MinervaList", package: "Model"),
            ],
            path: "Benchmarks/ListDiff",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Model",
            dependencies: [
                "InProcessAPI",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "MinervaCoordinator", package: "Model"),
                .product(name: "MinervaServer", package: "minerva-server"),
                .product(name: "MicroHTTP", package: "minerva-server"),
            ],
            path: "Benchmarks/Model",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
