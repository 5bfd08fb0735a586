/// The hash that assigns units to variants, as GrowthBook's SDKs compute it, so that every
/// instance, every restart and an independent implementation put a unit in the same place.
///
/// It hashes UTF-8 bytes, as GrowthBook's Go and Swift SDKs do: for ASCII ids (session ids, most
/// user ids) every SDK agrees; for others the JavaScript SDK hashes UTF-16 code units and the
/// Python one code points, and places the unit elsewhere.
public enum ExperimentHash {
    /// FNV-1a, 32 bits, over the UTF-8 bytes of `text`.
    public static func fnv1a32(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash
    }

    /// A unit's place in `[0, 1)` for an experiment's seed (GrowthBook's hash version 2):
    /// `fnv1a32(String(fnv1a32(seed + unit))) % 10000 / 10000`, in steps of 0.0001.
    public static func position(seed: String, unit: String) -> Double {
        Double(fnv1a32(String(fnv1a32(seed + unit))) % 10_000) / 10_000
    }

    /// A unit's place in `[0, 1)` for a namespace (GrowthBook's hash version 1, as its SDKs use
    /// for namespaces): `fnv1a32(unit + "__" + namespace) % 1000 / 1000`.
    public static func namespacePosition(namespace: String, unit: String) -> Double {
        Double(fnv1a32(unit + "__" + namespace) % 1_000) / 1_000
    }
}
