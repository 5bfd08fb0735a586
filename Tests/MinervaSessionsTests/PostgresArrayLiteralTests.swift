import Foundation
@testable import MinervaPostgres
import Testing

/// The text array literal the PostgreSQL store sends (the notices of a group commit, the ids of a
/// batch read) is written byte by byte: the same bytes as quoting and escaping the strings with
/// `String.replacing`, and PostgreSQL reads each element back as it was.
@Suite struct PostgresArrayLiteralTests {
    /// The characters that need escaping or delimit elements, and some that take several bytes.
    static let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "{", "}", ",", "'", "é", "🙂", "\n", "n"]

    static func randomValues(_ generator: inout SystemRandomNumberGenerator) -> [String] {
        (0..<Int.random(in: 0..<6, using: &generator)).map { _ in
            String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
    }

    /// The literal as the strings' own operations write it.
    static func reference(_ values: [String]) -> [UInt8] {
        Array(("{" + values.map { "\"" + $0.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}").utf8) + [0]
    }

    @Test func theBytesAreThoseOfQuotingTheStrings() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let values = Self.randomValues(&generator)
            #expect(PostgresValue.textArray(values).wireBytes == Self.reference(values), "\(values)")
        }
        #expect(PostgresValue.textArray([]).wireBytes == Array("{}".utf8) + [0])
    }

    @Test(.enabled(if: testPostgresURL != nil, "set MINERVA_TEST_POSTGRES to a PostgreSQL database URL"))
    func postgreSQLReadsEveryElementBack() throws {
        let connection = try PostgresConnection.open(testPostgresURL!, deadline: .now + .seconds(10))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let values = Self.randomValues(&generator)
            let rows = try connection.query("SELECT element FROM unnest($1::text[]) WITH ORDINALITY AS t(element, position) ORDER BY position", [.textArray(values)], until: .now + .seconds(10))
            #expect((0..<rows.count).map { rows.text($0, 0) } == values, "\(values)")
        }
    }
}
