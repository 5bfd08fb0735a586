// swift-tools-version:6.1
// libFuzzer targets for the parsers that read what clients send: the request path
// (percent-decoding and routing) and JSON bodies (differential against Foundation's
// JSONSerialization). A package of its own, built with `-sanitize=fuzzer`, so that the main
// package's build and tests never see it.
//   Fuzz/run.sh [SECONDS]     # builds both targets and fuzzes each for SECONDS (default 60)
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "minerva-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "minerva-server", path: ".."),
        .package(path: "../Model"),
    ],
    targets: [
        // MARK: - Targets
        .target(
            name: "FuzzDriver",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-json",
            dependencies: ["FuzzDriver", .product(name: "MinervaJSON", package: "Model")],
            swiftSettings: swiftSettings
        ),
        // Route is internal to MinervaServer: this target imports it @testable, which debug builds allow.
        .executableTarget(
            name: "fuzz-path",
            dependencies: [
                "FuzzDriver",
                .product(name: "MicroHTTP", package: "minerva-server"),
                .product(name: "MinervaServer", package: "minerva-server"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
