/// The `/`-separated segments of a path, as byte ranges, matched against the endpoints' patterns.
struct PathSegments {
    /// Room for as many segments as the longest API path has.
    typealias Slots<Element> = InlineArray<7, Element>

    let path: UnsafeBufferPointer<UInt8>
    private var ranges = Slots<Range<Int>>(repeating: 0..<0)
    private(set) var count = 0

    /// Splits a path that starts with `/`; `nil` for any other path or one with too many segments.
    init?(_ path: UnsafeBufferPointer<UInt8>) {
        guard path.first == UInt8(ascii: "/") else { return nil }
        self.path = path
        var start = 1
        for index in 1...path.count where index == path.count || path[index] == UInt8(ascii: "/") {
            guard count < ranges.count else { return nil }
            ranges[count] = start..<index
            count += 1
            start = index + 1
        }
    }

    /// The byte range of segment `index`.
    func range(_ index: Int) -> Range<Int> {
        ranges[index]
    }

    /// Whether the segments are a path `pattern` describes: its literals where it has them, and a
    /// segment that is not empty for each of its placeholders. Asked of every endpoint in turn, so
    /// inlined: most are told apart by their number of segments alone.
    @inline(__always)
    func matches(_ pattern: PathPattern) -> Bool {
        guard pattern.count == count else { return false }
        return pattern.text.withUTF8Buffer { text in
            // From the last segment back: the last one tells most endpoints apart.
            for index in (0..<count).reversed() {
                switch pattern.segments[index] {
                case .literal(let literal):
                    let bytes = UnsafeBufferPointer(rebasing: text[Int(literal.lowerBound)..<Int(literal.upperBound)])
                    guard segment(index, is: bytes) else { return false }
                case .placeholder:
                    guard !range(index).isEmpty else { return false }
                }
            }
            return true
        }
    }

    /// The ids the segments of `path` give the placeholders of `pattern`, which they match; `nil`
    /// when a placeholder cannot take its segment (``PathParameters/set(_:to:)``).
    func parameters(of pattern: PathPattern, in path: String) -> PathParameters? {
        var parameters = PathParameters(of: path)
        for index in 0..<count {
            guard case .placeholder(let name) = pattern.segments[index] else { continue }
            guard parameters.set(name, to: range(index)) else { return nil }
        }
        return parameters
    }

    /// Whether segment `index` is exactly `literal`.
    private func segment(_ index: Int, is literal: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = range(index)
        return range.count == literal.count && UnsafeBufferPointer(rebasing: path[range]).elementsEqual(literal)
    }
}
