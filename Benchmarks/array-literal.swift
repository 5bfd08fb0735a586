// The PostgreSQL store's text array literal (the notices of a group commit), written by quoting
// and escaping strings with `String.replacing` (before issue 42) and byte by byte
// (`PostgresValue.arrayLiteral`, copied here as it is), each 1,000 times on 8 notices of the
// shape the store sends; instructions per call come from callgrind:
//   swiftc -O Benchmarks/array-literal.swift -o /tmp/array-literal
//   valgrind --tool=callgrind --callgrind-out-file=/tmp/array-literal.cg /tmp/array-literal
//   callgrind_annotate --inclusive=yes /tmp/array-literal.cg | swift demangle | grep -E 'viaStrings|viaBytes'
// (divide by 1,000). Tests/MinervaSessionsTests/PostgresArrayLiteralTests.swift holds the two to the same bytes.
@inline(never) func viaStrings(_ values: [String]) -> [UInt8] {
    Array(("{" + values.map { "\"" + $0.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}").utf8) + [0]
}
@inline(never) func viaBytes(_ values: [String]) -> [UInt8] {
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    var bytes: [UInt8] = []
    bytes.reserveCapacity(values.reduce(3) { $0 + $1.utf8.count + 3 })
    bytes.append(UInt8(ascii: "{"))
    for (index, value) in values.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(quote)
        for byte in value.utf8 {
            if byte == quote || byte == backslash { bytes.append(backslash) }
            bytes.append(byte)
        }
        bytes.append(quote)
    }
    bytes.append(UInt8(ascii: "}"))
    bytes.append(0)
    return bytes
}
let notices = (0..<8).map { "7 s_AbCdEfGhIjKlMnOpQrStUv\($0) \(100 + $0) \(200 + $0)" }
var total = 0
for _ in 0..<1000 { total &+= viaStrings(notices).count }
for _ in 0..<1000 { total &+= viaBytes(notices).count }
print(total)
