extension JSONKeys {
    /// The name a client most likely meant by `key`, or `nil` when none is close.
    ///
    /// Names are compared with case, `_` and `-` ignored (so `to_root` finds `toRoot` and
    /// `NODE` finds `node`), by optimal string alignment distance (Damerau–Levenshtein where no
    /// substring is edited twice); a name is close when at most a third of the longer one's
    /// characters (at least one) differ. Ties go to the name listed first.
    /// - Complexity: O(n·m²) for n names of at most m characters; keys over 64 bytes are never matched.
    public func nearest(to key: String) -> String? {
        let typed = Self.folded(key)
        guard typed.count <= 64 else { return nil }
        var best: (name: String, distance: Int)?
        for name in names {
            let candidate = Self.folded(name)
            let limit = max(1, max(typed.count, candidate.count) / 3)
            guard abs(typed.count - candidate.count) <= limit else { continue }
            let distance = Self.distance(typed, candidate)
            if distance <= limit, distance < best?.distance ?? .max {
                best = (name, distance)
            }
        }
        return best?.name
    }

    /// The UTF-8 bytes of `name`, ASCII letters lowercased, `_` and `-` left out.
    private static func folded(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for byte in name.utf8 where byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") {
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return bytes
    }

    /// The fewest insertions, deletions, substitutions and transpositions of adjacent bytes
    /// that turn `a` into `b`, no substring being edited twice.
    private static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the dynamic programme: two back, one back, and the one being filled.
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
