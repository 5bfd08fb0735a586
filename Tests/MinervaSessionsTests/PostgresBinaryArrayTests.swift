import Foundation
@testable import MinervaPostgres
import Testing

/// The arrays a group commit sends in PostgreSQL's binary format (one per argument of
/// `minerva_commit_group`) are read back by a real PostgreSQL element by element, NULLs and
/// empty arrays included, and the `int4[]` it answers with is read as it wrote it.
@Suite(.enabled(if: testPostgresURL != nil, "set MINERVA_TEST_POSTGRES to a PostgreSQL database URL"))
struct PostgresBinaryArrayTests {
    let connection: PostgresConnection

    init() throws {
        connection = try PostgresConnection.open(testPostgresURL!, deadline: .now + .seconds(10))
    }

    /// Each element as PostgreSQL writes it in text (`NULL` for NULL), in order.
    func elements(_ value: PostgresValue, as type: String) throws -> [String] {
        let rows = try connection.query(
            "SELECT COALESCE(element::text, 'NULL') FROM unnest($1::\(type)[]) WITH ORDINALITY AS t(element, position) ORDER BY position",
            [value], until: .now + .seconds(10))
        return (0..<rows.count).map { rows.text($0, 0) }
    }

    @Test func everyElementTypeReadsBackWithItsNulls() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let count = Int.random(in: 0..<6, using: &generator)
            let ints: [Int?] = (0..<count).map { _ in Bool.random(using: &generator) ? nil : Int.random(in: Int.min...Int.max, using: &generator) }
            #expect(try elements(.ints(ints), as: "int8") == ints.map { $0.map(String.init) ?? "NULL" })
            let small = (0..<count).map { _ in Int32.random(in: Int32.min...Int32.max, using: &generator) }
            #expect(try elements(.int32s(small), as: "int4") == small.map(String.init))
            let doubles: [Double?] = (0..<count).map { _ in Bool.random(using: &generator) ? nil : Double.random(in: -1e9...1e9, using: &generator) }
            let readDoubles = try elements(.doubles(doubles), as: "float8").map { $0 == "NULL" ? nil : Double($0) }
            #expect(readDoubles == doubles)
            let bools = (0..<count).map { _ in Bool.random(using: &generator) }
            #expect(try elements(.bools(bools), as: "bool") == bools.map { $0 ? "true" : "false" })
            let texts: [String?] = (0..<count).map { _ in
                Bool.random(using: &generator) ? nil : String((0..<Int.random(in: 0..<8, using: &generator)).map { _ in "a\"\\{},' é🙂".randomElement(using: &generator)! })
            }
            #expect(try elements(.texts(texts), as: "text") == texts.map { $0 ?? "NULL" })
            let bytes: [[UInt8]?] = (0..<count).map { _ in
                Bool.random(using: &generator) ? nil : (0..<Int.random(in: 0..<8, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            #expect(try elements(.byteArrays(bytes), as: "bytea") == bytes.map { $0.map { "\\x" + $0.map { String(format: "%02x", $0) }.joined() } ?? "NULL" })
        }
    }

    @Test func infinitiesAndEmptyArraysAreWhatTheyAre() throws {
        #expect(try elements(.doubles([-.infinity, .infinity]), as: "float8") == ["-Infinity", "Infinity"])
        let empty = try connection.query("SELECT cardinality($1::int8[]), $1::int8[] = '{}'", [.ints([])], until: .now + .seconds(10))
        #expect(empty.int(0, 0) == 0 && empty.bool(0, 1))
    }

    @Test func anInt4ArrayIsReadAsPostgreSQLWroteIt() throws {
        for values: [Int32] in [[], [0], [3, -1, Int32.max, Int32.min], Array(0..<100)] {
            let rows = try connection.query("SELECT $1::int4[]", [.int32s(values)], until: .now + .seconds(10))
            #expect(rows.int32Array(0, 0) == values)
        }
        let made = try connection.query(
            "SELECT ARRAY[2, 7, -5]::int4[], '{}'::int4[], NULL::int4[], ARRAY[4, NULL, 6]::int4[]", until: .now + .seconds(10))
        #expect(made.int32Array(0, 0) == [2, 7, -5] && made.int32Array(0, 1) == [] && made.int32Array(0, 2) == [])
        #expect(made.int32Array(0, 3) == [4], "cut at the NULL")
    }
}
