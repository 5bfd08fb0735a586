// swift-tools-version:6.1
// MinervaClient: a Swift client of Minerva Server for iOS and macOS apps and Linux services.
// A package of its own, so that the server's `swift build` and `swift test` never resolve or
// build AsyncHTTPClient or SwiftNIO. Its HTTP layer (Sources/MinervaClient/Generated/) is written
// from openapi.yaml by scripts/generate-swift-client.sh and committed: apps need no build plugin.
//   swift test --package-path Client      # runs against ../.build/release/minerva-server (MINERVA_BIN)
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// MARK: - Dependencies

let openAPIRuntime = Package.Dependency.package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4")
let openAPIURLSession = Package.Dependency.package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0")
let openAPIAsyncHTTPClient = Package.Dependency.package(
    url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0")
let asyncHTTPClient = Package.Dependency.package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0")
let httpTypes = Package.Dependency.package(url: "https://github.com/apple/swift-http-types", from: "1.8.0")
// The navigation model (../Model): the server's own replay, which the mirror runs on the device.
let model = Package.Dependency.package(path: "../Model")

/// AsyncHTTPClient is the transport off Apple platforms; apps on Apple platforms use URLSession
/// and never build SwiftNIO.
let notApple: TargetDependencyCondition? = .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])

let package = Package(
    name: "minerva-client",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "MinervaClient", targets: ["MinervaClient"]),
    ],
    dependencies: [model, openAPIRuntime, openAPIURLSession, openAPIAsyncHTTPClient, asyncHTTPClient, httpTypes],
    targets: [
        // MARK: - Targets
        .target(
            name: "MinervaClient",
            dependencies: [
                .product(name: "MinervaModel", package: "Model"),
                .product(name: "MinervaCoordinator", package: "Model"),
                .product(name: "MinervaJSON", package: "Model"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client", condition: notApple),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: notApple),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi-generator-config.yaml", "Generated.sha256"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Tests
        .testTarget(
            name: "MinervaClientTests",
            dependencies: [
                "MinervaClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
