// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// MARK: - Dependencies

let argumentParser = Package.Dependency.package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
let swiftLog = Package.Dependency.package(url: "https://github.com/apple/swift-log", from: "1.16.2")
let swiftCollections = Package.Dependency.package(url: "https://github.com/apple/swift-collections", from: "1.6.0")
let grdb = Package.Dependency.package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0")
let swiftCrypto = Package.Dependency.package(url: "https://github.com/apple/swift-crypto", from: "3.12.3")
let swiftMetrics = Package.Dependency.package(url: "https://github.com/apple/swift-metrics", from: "2.13.0")
let swiftPrometheus = Package.Dependency.package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1")
// The navigation model (Model/Package.swift): a package of its own, without dependencies.
let model = Package.Dependency.package(path: "Model")

let json = Target.Dependency.product(name: "MinervaJSON", package: "Model")
let list = Target.Dependency.product(name: "MinervaList", package: "Model")
let coordinator = Target.Dependency.product(name: "MinervaCoordinator", package: "Model")
let sessionModel = Target.Dependency.product(name: "MinervaModel", package: "Model")

let package = Package(
    name: "minerva-server",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "minerva-server", targets: ["minerva-server"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "MinervaSessions", targets: ["MinervaSessions"]),
        .library(name: "MinervaSQLite", targets: ["MinervaSQLite"]),
        .library(name: "MinervaPostgres", targets: ["MinervaPostgres"]),
        .library(name: "MinervaServer", targets: ["MinervaServer"]),
    ],
    dependencies: [model, argumentParser, swiftLog, swiftCollections, grdb, swiftCrypto, swiftMetrics, swiftPrometheus],
    targets: [
        // MARK: - Targets
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(
            name: "Locking",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MicroHTTP",
            dependencies: ["CMicroHTTPD", "Locking"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MinervaExperiments",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MinervaSessions",
            dependencies: [
                "Locking",
                "MinervaExperiments",
                json,
                coordinator,
                list,
                sessionModel,
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MinervaSQLite",
            dependencies: [
                "MinervaSessions",
                json,
                list,
                sessionModel,
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MinervaPostgres",
            dependencies: [
                "CLibPQ",
                "Locking",
                "MinervaSessions",
                sessionModel,
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MinervaServer",
            dependencies: [
                "MicroHTTP",
                "Locking",
                "MinervaExperiments",
                json,
                coordinator,
                list,
                sessionModel,
                "MinervaSessions",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            resources: [.embedInCode("Web")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "minerva-server",
            dependencies: [
                "MinervaServer",
                "MinervaSessions",
                coordinator,
                sessionModel,
                "MinervaSQLite",
                "MinervaPostgres",
                "MicroHTTP",
                json,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tests
        .target(
            name: "TestSupport",
            dependencies: [coordinator, sessionModel, "MinervaSessions"],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MinervaJSONTests",
            dependencies: [json, "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MinervaCoordinatorTests",
            dependencies: [coordinator, json, "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MinervaListTests",
            dependencies: [list, json, "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MinervaExperimentsTests",
            dependencies: ["MinervaExperiments", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MicroHTTPTests",
            dependencies: ["MicroHTTP", "Locking"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MinervaSessionsTests",
            dependencies: [
                "MinervaSessions", "MinervaSQLite", "MinervaPostgres", coordinator, sessionModel, list, json, "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MinervaServerTests",
            dependencies: [
                "MinervaServer", "MinervaSessions", "MinervaSQLite", coordinator, sessionModel, list, json, "MicroHTTP",
                "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
