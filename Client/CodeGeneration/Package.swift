// swift-tools-version:6.1
// The tool that writes MinervaClient's generated layer from openapi.yaml: a package of its own,
// so that apps that depend on MinervaClient never resolve or build the generator.
//   scripts/generate-swift-client.sh            # writes Client/Sources/MinervaClient/Generated/
//   scripts/generate-swift-client.sh --check    # fails when the committed sources are not current
import PackageDescription

let package = Package(
    name: "minerva-client-code-generation",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
    ],
    targets: []
)
