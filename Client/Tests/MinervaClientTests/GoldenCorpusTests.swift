import Foundation
import MinervaModel
import Testing

/// The model's golden corpus (`Model/Corpus/`, which the server's tests write and check) run with
/// the model the client links: it makes the same block of every recorded change, so a client that
/// applies a change itself predicts the server's answer.
@Suite struct GoldenCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Model/Corpus")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func theCorpusHasAFileForEachApp() {
        #expect(Self.files.count >= 7, "\(Self.files)")
    }

    @Test(arguments: files)
    func theClientsModelMakesWhatTheCorpusRecorded(file: String) throws {
        let corpus = try StepCorpus(bytes: [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(file))))
        #expect(corpus.modelVersion == ModelVersion.current)
        let mismatches = try corpus.mismatches()
        #expect(mismatches.isEmpty, "\(file): \(mismatches.prefix(3).joined(separator: "\n"))")
    }
}
