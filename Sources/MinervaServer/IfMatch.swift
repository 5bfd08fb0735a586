import MinervaJSON

/// The `If-Match` precondition of a mutation (and `If-None-Match` of a read): `*`, or a list of
/// quoted entity tags, compared with the session's version.
struct IfMatch: Sendable {
    /// The opaque tags the header lists, quotes included and `W/` dropped; `nil` without a header.
    private let tags: [Substring]?
    /// Whether the header lists `*`.
    private let any: Bool

    /// Reads the header's value; a value that is not `*` or a list of quoted entity tags (`5`
    /// for `"5"`, or nothing) is refused, as it could never match and would fail quietly.
    /// - Parameters:
    ///   - header: the field's value, if the request has one.
    ///   - name: the field's name, for the error message.
    /// - Throws: `400` saying how to write the entity tag.
    init(_ header: String?, name: String) throws(APIError) {
        guard let header else {
            (tags, any) = (nil, false)
            return
        }
        var scanner = TagScanner(header[...])
        var tags: [Substring] = []
        var any = false
        while let element = scanner.next() {
            switch element {
            case .any: any = true
            case .tag(let tag): tags.append(tag)
            case .invalid(let text):
                let bare = text.trimmingCharacters(of: "\"")
                throw .invalidRequest(
                    "\(name) \(Excerpt(String(text))) is not an entity tag: entity tags are quoted; send \(name): \"\(bare)\" as the ETag header gave it")
            }
        }
        guard any || !tags.isEmpty else {
            throw .invalidRequest("\(name) is empty; send the ETag the server gave, quotes included, as in \(name): \"3\"")
        }
        (self.tags, self.any) = (tags, any)
    }

    /// The precondition for the session core; `nil` without a header.
    var precondition: (@Sendable (Int) -> Bool)? {
        guard tags != nil else { return nil }
        return { version in self.matches(version: version) }
    }

    /// Whether the precondition holds for the session's current version; no header always holds.
    func matches(version: Int) -> Bool {
        guard let tags else { return true }
        let current = "\"\(version)\""
        return any || tags.contains { $0 == current }
    }
}

/// The elements of an `If-Match` list (RFC 9110): `*` or `[W/]"…"`, separated by commas and
/// spaces; a comma inside quotes is part of its tag.
private struct TagScanner {
    enum Element {
        case any
        /// The opaque tag, quotes included.
        case tag(Substring)
        /// An element that is neither, up to the next comma.
        case invalid(Substring)
    }

    private var rest: Substring

    init(_ text: Substring) {
        rest = text
    }

    /// The next element; `nil` at the end. After an invalid element the scan stops.
    mutating func next() -> Element? {
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
        guard !rest.isEmpty else { return nil }
        let start = rest
        if rest.first == "*" {
            rest = rest.dropFirst()
            return endOfElement() ? .any : invalid(from: start)
        }
        let opaque = rest.hasPrefix("W/") ? rest.dropFirst(2) : rest
        guard opaque.first == "\"", let close = opaque.dropFirst().firstIndex(of: "\"") else { return invalid(from: start) }
        let tag = opaque[...close]
        rest = opaque[opaque.index(after: close)...]
        return endOfElement() ? .tag(tag) : invalid(from: start)
    }

    /// Whether only spaces come before the next comma or the end.
    private func endOfElement() -> Bool {
        let after = rest.drop { $0 == " " || $0 == "\t" }
        return after.isEmpty || after.first == ","
    }

    /// The element that starts at `start`, up to the next comma, as invalid; the scan ends.
    private mutating func invalid(from start: Substring) -> Element {
        rest = ""
        return .invalid(start.prefix { $0 != "," }.trimmingCharacters(of: " "))
    }
}

extension Substring {
    /// The text without leading and trailing `character`s.
    fileprivate func trimmingCharacters(of character: Character) -> Substring {
        var text = drop { $0 == character }
        while text.last == character { text = text.dropLast() }
        return text
    }
}
