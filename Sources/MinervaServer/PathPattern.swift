/// An endpoint's path as openapi.yaml writes it (`/v1/sessions/{id}/nodes/{node}/list`), split
/// once into literal segments and placeholders for ``PathSegments`` to match. It is a few bytes
/// that hold no reference, so that matching a path against every endpoint copies and counts nothing.
struct PathPattern: Sendable {
    /// One `/`-separated segment of a pattern.
    enum Segment: Sendable {
        /// The bytes a path must have there: a range of ``text``.
        case literal(Range<UInt8>)
        /// Any segment but an empty one: the id the path gives this placeholder.
        case placeholder(PathParameters.Name)
    }

    /// The pattern as written.
    let text: StaticString
    /// The segments, the first ``count`` of them used.
    private(set) var segments = PathSegments.Slots<Segment>(repeating: .literal(0..<0))
    /// How many segments the pattern has.
    private(set) var count = 0

    /// Splits a pattern; a placeholder is a whole segment in braces naming a ``PathParameters/Name``.
    /// A pattern that is not a path of at most as many segments as ``PathSegments/Slots`` holds
    /// and 255 bytes, or that names an unknown placeholder, is a mistake in the endpoints' table
    /// and stops the server.
    init(_ text: StaticString) {
        self.text = text
        text.withUTF8Buffer { bytes in
            guard bytes.count <= UInt8.max, let split = PathSegments(bytes) else { preconditionFailure("\(text) is not a path of the API") }
            for index in 0..<split.count {
                segments[index] = Self.segment(bytes, split.range(index), of: text)
            }
            count = split.count
        }
    }

    /// The segment `range` of the pattern's `bytes`: a placeholder when it is in braces.
    private static func segment(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, of text: StaticString) -> Segment {
        guard range.count > 2, bytes[range.lowerBound] == UInt8(ascii: "{"), bytes[range.upperBound - 1] == UInt8(ascii: "}") else {
            return .literal(UInt8(range.lowerBound)..<UInt8(range.upperBound))
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[range.lowerBound + 1..<range.upperBound - 1]), as: UTF8.self)
        guard let placeholder = PathParameters.Name(rawValue: name) else { preconditionFailure("\(text) names an unknown placeholder {\(name)}") }
        return .placeholder(placeholder)
    }
}
