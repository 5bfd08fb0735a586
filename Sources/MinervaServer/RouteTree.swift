/// The endpoints' patterns as a tree of segments, built once from ``Endpoint/all``: a path finds
/// its endpoint segment by segment, comparing the bytes of each with the few literals that may
/// follow the segments before it, instead of matching every pattern in turn. Where a literal
/// and a placeholder may both follow, a segment that is the literal takes the literal.
///
/// The tree is kept in flat arrays of plain values, so that walking it copies and counts nothing.
struct RouteTree: Sendable {
    /// A literal segment that may follow a branch: its bytes in ``literalBytes`` and the branch after it.
    private struct Literal: Sendable {
        var start: Int
        var count: Int
        var next: Int
    }

    /// What may follow a path's first segments.
    private struct Branch: Sendable {
        /// Its literals: ``literals`` from `firstLiteral`, `literalCount` of them.
        var firstLiteral = 0
        var literalCount = 0
        /// The placeholder that may stand here, and the branch after it (`-1`: none).
        var placeholder = PathParameters.Name.id
        var placeholderNext = -1
        /// The index in ``endpoints`` of the endpoint of a path that ends here (`-1`: none).
        var endpoint = -1
    }

    private var branches = [Branch()]
    private var literals: [Literal] = []
    private var literalBytes: [UInt8] = []
    private let endpoints: [Endpoint]

    /// The tree of every endpoint of the API.
    static let api = RouteTree(Endpoint.all)

    /// Builds the tree of `endpoints`, whose patterns differ.
    init(_ endpoints: [Endpoint]) {
        self.endpoints = endpoints
        // Built as nested lists first, then laid out flat, each branch's literals together.
        var children: [[(bytes: [UInt8], next: Int)]] = [[]]
        var placeholders: [(name: PathParameters.Name, next: Int)?] = [nil]
        var ends: [Int] = [-1]
        for (index, endpoint) in endpoints.enumerated() {
            let pattern = endpoint.pattern
            var branch = 0
            pattern.text.withUTF8Buffer { text in
                for segment in 0..<pattern.count {
                    switch pattern.segments[segment] {
                    case .literal(let range):
                        let bytes = Array(text[range])
                        if let known = children[branch].first(where: { $0.bytes == bytes }) {
                            branch = known.next
                        } else {
                            children.append([])
                            placeholders.append(nil)
                            ends.append(-1)
                            children[branch].append((bytes, children.count - 1))
                            branch = children.count - 1
                        }
                    case .placeholder(let name):
                        if let known = placeholders[branch] {
                            precondition(known.name == name, "\(pattern.text) names another placeholder where another pattern has {\(known.name)}")
                            branch = known.next
                        } else {
                            children.append([])
                            placeholders.append(nil)
                            ends.append(-1)
                            placeholders[branch] = (name, children.count - 1)
                            branch = children.count - 1
                        }
                    }
                }
            }
            precondition(ends[branch] == -1, "two endpoints have the pattern \(pattern.text)")
            ends[branch] = index
        }
        branches = []
        for branch in children.indices {
            var laid = Branch(firstLiteral: literals.count, literalCount: children[branch].count, endpoint: ends[branch])
            if let placeholder = placeholders[branch] {
                laid.placeholder = placeholder.name
                laid.placeholderNext = placeholder.next
            }
            branches.append(laid)
            for child in children[branch] {
                literals.append(Literal(start: literalBytes.count, count: child.bytes.count, next: child.next))
                literalBytes += child.bytes
            }
        }
    }

    /// The endpoint the segments name and the ids they give its placeholders; `nil` for none, or
    /// when a placeholder cannot take its segment (``PathParameters/set(_:to:)``).
    /// - Complexity: O(n) in the path's bytes; it allocates only for the route and its ids.
    func route(_ segments: PathSegments) -> Route? {
        var branch = 0
        var parameters = PathParameters()
        for index in 0..<segments.count {
            let here = branches[branch]
            if let next = literal(segments, index, among: here) {
                branch = next
            } else if here.placeholderNext >= 0, !segments.range(index).isEmpty {
                guard parameters.set(here.placeholder, to: segments.string(index)) else { return nil }
                branch = here.placeholderNext
            } else {
                return nil
            }
        }
        let endpoint = branches[branch].endpoint
        return endpoint >= 0 ? Route(endpoint: endpoints[endpoint], parameters: parameters) : nil
    }

    /// The branch after segment `index` when it is one of the branch's literals.
    private func literal(_ segments: PathSegments, _ index: Int, among branch: Branch) -> Int? {
        let range = segments.range(index)
        for literal in literals[branch.firstLiteral..<branch.firstLiteral + branch.literalCount] where literal.count == range.count {
            var offset = 0
            while offset < literal.count, segments.path[range.lowerBound + offset] == literalBytes[literal.start + offset] { offset += 1 }
            if offset == literal.count { return literal.next }
        }
        return nil
    }
}
