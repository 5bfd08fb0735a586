// Differential fuzzing of MinervaJSON's parser against Foundation's JSONSerialization: both
// must accept and refuse the same documents and read the same values, apart from the known
// differences below, where MinervaJSON is deliberately stricter.
//
// Known differences (inputs skipped, not findings):
// - Duplicate keys: MinervaJSON refuses them (a typo must not win silently); Foundation keeps
//   the last. Keys that differ only in Unicode normalisation count as duplicates in both, as
//   Swift strings compare them equal.
// - Depth: MinervaJSON refuses nesting deeper than 64; Foundation allows 512.
// - Numbers with more digits than a Double holds: Foundation answers an NSDecimalNumber, so
//   they are compared to 13 significant digits rather than bit for bit (Decimal's conversion
//   to Double is not correctly rounded).
// - A NUL byte: Foundation ends the document there (it reads `4<NUL>junk` as 4); MinervaJSON
//   refuses it, as RFC 8259 allows no NUL outside a string's escapes.
// - A trailing comma (`[1,]`, `{"a":1,}`): Foundation accepts it; RFC 8259 and MinervaJSON do not.
import FuzzDriver
import Foundation
import MinervaJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    let ours: JSONValue?
    do {
        ours = try JSONParser.parse(bytes)
    } catch {
        if error.description.hasPrefix("duplicate key") || error.description.hasPrefix("JSON nested too deeply") { return 0 }
        ours = nil
    }
    let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    switch (ours, theirs) {
    case (nil, nil):
        return 0
    case (let ours?, nil):
        finding("MinervaJSON accepts what Foundation refuses: \(ours)")
    case (nil, _?) where bytes.contains(0) || hasTrailingComma(bytes):
        return 0
    case (nil, let theirs?):
        finding("MinervaJSON refuses what Foundation accepts: \(theirs)")
    case (let ours?, let theirs?):
        var writer = JSONWriter()
        writer.value(ours)
        guard let written = try? JSONParser.parse(writer.bytes), written == ours else {
            finding("MinervaJSON's writer and parser do not round-trip \(ours)")
        }
        guard agree(ours, theirs) else { finding("values differ: MinervaJSON \(ours), Foundation \(theirs)") }
        return 0
    }
}

/// Whether a MinervaJSON value and a Foundation one are the same JSON value; strings are
/// compared scalar by scalar (Swift's == would let normalisation hide a difference).
func agree(_ ours: JSONValue, _ theirs: Any) -> Bool {
    switch ours {
    case .null:
        return theirs is NSNull
    case .string(let string):
        guard let other = theirs as? String else { return false }
        return string.unicodeScalars.elementsEqual(other.unicodeScalars)
    case .array(let elements):
        guard let others = theirs as? [Any], others.count == elements.count else { return false }
        return zip(elements, others).allSatisfy { agree($0, $1) }
    case .object(let members):
        guard let others = theirs as? [String: Any], others.count == members.count else { return false }
        return members.allSatisfy { key, value in others[key].map { agree(value, $0) } ?? false }
    case .bool(let flag):
        guard let number = theirs as? NSNumber, String(cString: number.objCType) == "c" else { return false }
        return number.boolValue == flag
    case .int, .double:
        guard let number = theirs as? NSNumber, String(cString: number.objCType) != "c" else { return false }
        return sameNumber(ours, number)
    }
}

private func sameNumber(_ ours: JSONValue, _ theirs: NSNumber) -> Bool {
    if theirs is NSDecimalNumber {
        let value: Double =
            switch ours {
            case .int(let integer): Double(integer)
            case .double(let double): double
            default: .nan
            }
        return abs(value - theirs.doubleValue) <= abs(value) * 1e-13
    }
    let their: JSONValue =
        switch String(cString: theirs.objCType) {
        case "d", "f": .double(theirs.doubleValue)
        case "Q": .double(Double(theirs.uint64Value))
        default: .int(Int(theirs.int64Value))
        }
    return ours == their
}

/// Whether a `,` is followed (after white space) by `]` or `}`.
func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
    var afterComma = false
    for byte in bytes {
        switch byte {
        case UInt8(ascii: ","): afterComma = true
        case 0x20, 0x09, 0x0A, 0x0D: continue
        case UInt8(ascii: "]") where afterComma, UInt8(ascii: "}") where afterComma: return true
        default: afterComma = false
        }
    }
    return false
}

runFuzzer(fuzzJSON)
