// swift-tools-version:6.1
// The navigation model as a package of its own, with no dependency: a session's state, its pure
// step and the replay of its change log (MinervaModel), the coordinator tree and the app
// description (MinervaCoordinator), lists and their fewest-moves diff (MinervaList), and the JSON
// reader and writer they need (MinervaJSON). The server's package depends on it by path;
// nothing in it knows HTTP, storage, logging or metrics, so that an app can build it too.
//   swift build --package-path Model
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "minerva-model",
    // As old as MinervaClient's, which builds the model on the device.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "MinervaModel", targets: ["MinervaModel"]),
        .library(name: "MinervaCoordinator", targets: ["MinervaCoordinator"]),
        .library(name: "MinervaList", targets: ["MinervaList"]),
        .library(name: "MinervaJSON", targets: ["MinervaJSON"]),
    ],
    targets: [
        .target(
            name: "MinervaJSON",
            swiftSettings: swiftSettings,
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(
            name: "MinervaList",
            dependencies: ["MinervaJSON"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MinervaCoordinator",
            dependencies: ["MinervaJSON"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MinervaModel",
            dependencies: ["MinervaCoordinator", "MinervaList", "MinervaJSON"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
