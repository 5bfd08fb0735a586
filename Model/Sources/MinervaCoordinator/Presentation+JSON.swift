public import MinervaJSON

extension Presentation {
    /// Writes `{"kind", "style"?, "level"?}`, as the API's state documents and events show it.
    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("kind", kind.rawValue)
        if let style { writer.field("style", style.rawValue) }
        if let level { writer.field("level", level.rawValue) }
        writer.endObject()
    }

    /// Writes the presentation as stored records keep it (`{"kind", "style"?}` today, apart from
    /// the API's writer so that either may change alone); read back with ``init(reader:)``.
    public func writeSnapshot(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("kind", kind.rawValue)
        if let style { writer.field("style", style.rawValue) }
        writer.endObject()
    }

    /// The members of a written presentation.
    public static let keys: JSONKeys = ["kind", "style"]
    /// The members of a presentation as the API shows it (``write(into:)``): `level` follows
    /// from the kind and style, and is not read.
    public static let documentKeys: JSONKeys = ["kind", "style", "level"]

    /// Reads a stored presentation back (a reader over ``keys``).
    public init(reader: JSONObjectReader) throws(JSONReadError) {
        self.init(try reader.enumValue("kind", as: Kind.self), style: try reader.optionalEnumValue("style", as: ModalStyle.self))
    }
}
