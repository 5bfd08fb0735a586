public import MinervaJSON

extension Presentation {
    /// Writes `{"kind", "style"?}`, as state documents, events and their records carry it.
    public func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("kind", kind.rawValue)
        if let style { writer.field("style", style.rawValue) }
        writer.endObject()
    }

    /// The members of a written presentation.
    public static let keys: JSONKeys = ["kind", "style"]

    /// Reads a presentation back (a reader over ``keys``).
    public init(reader: JSONObjectReader) throws(JSONReadError) {
        self.init(try reader.enumValue("kind", as: Kind.self), style: try reader.optionalEnumValue("style", as: ModalStyle.self))
    }
}
