public import MinervaJSON

/// What a cell shows, kept as its canonical JSON text (``JSONValue/canonicalJSON``) rather than as
/// a tree of values.
///
/// The text is written once, when the content arrives, so that comparing two contents compares
/// bytes: equal text means values equal as JSON (numbers compare as numbers, key order doesn't
/// matter, strings compare by their UTF-8), and it hashes no keys. It is also one heap
/// object of a few dozen bytes where a `JSONValue` object is a dictionary with its own buckets,
/// keys and values, and it is written into responses as it is.
public struct CellContent: Sendable {
    /// The canonical JSON text, UTF-8.
    public let json: [UInt8]

    /// `null`: the content of a cell sent without one.
    public static let null = CellContent(canonical: Array("null".utf8))

    /// Writes `value` as canonical text.
    /// - Complexity: O(n) in the size of the value, plus sorting each object's keys.
    public init(_ value: JSONValue) {
        json = value.canonicalJSON
    }

    /// Wraps text that is already canonical.
    init(canonical json: [UInt8]) {
        self.json = json
    }

    /// The content as a value, read back from its text.
    /// - Complexity: O(n) in the length of the text.
    public var value: JSONValue {
        // Canonical text is valid JSON, written from a value that was no deeper than this.
        try! JSONParser.parse(json, maximumDepth: .max)
    }
}

extension CellContent: Hashable {
    public static func == (lhs: CellContent, rhs: CellContent) -> Bool {
        lhs.json == rhs.json
    }

    public func hash(into hasher: inout Hasher) {
        json.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension CellContent: CustomStringConvertible {
    /// The canonical JSON text.
    public var description: String {
        String(decoding: json, as: UTF8.self)
    }
}
