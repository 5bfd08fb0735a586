import Foundation
import MinervaModel
@testable import MinervaServer
import MinervaSessions
import Testing

/// Every event kind of the closed set is handled where it is shown: the web inspector labels
/// it, and `openapi.yaml` documents it.
@Suite struct EventKindTests {
    @Test(arguments: SessionEvent.Kind.allCases)
    func theInspectorLabelsEveryKind(kind: SessionEvent.Kind) {
        let inspector = String(decoding: PackageResources.inspector_js, as: UTF8.self)
        #expect(inspector.contains("case \"\(kind.rawValue)\":"), "inspector.js has no label for \(kind.rawValue)")
    }

    @Test func theContractDocumentsExactlyTheKinds() throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let text = try String(contentsOf: document, encoding: .utf8)
        let mapping = try #require(text.range(of: "      discriminator:\n        propertyName: type\n        mapping:\n"))
        let documented = text[mapping.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("          ") }
            .map { String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" }) }
        #expect(Set(documented) == Set(SessionEvent.Kind.allCases.map(\.rawValue)))
    }

    @Test func kindsAreInBlockOrder() {
        let ranks = SessionEvent.Kind.allCases.map(\.blockRank)
        #expect(ranks == ranks.sorted() && Set(ranks).count == ranks.count)
    }
}
