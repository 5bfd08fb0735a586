/// The `/`-separated segments of a path, as byte ranges, for ``RouteTree`` to find their endpoint.
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

    /// Segment `index` as a string.
    func string(_ index: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: path[range(index)]), as: UTF8.self)
    }
}
