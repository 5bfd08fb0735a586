public import MinervaJSON

extension AppDescription {
    /// A screen's sample list: sections of cells, each as `PUT …/nodes/{node}/list` takes it, for a
    /// client to put on a node of the screen that has no list yet (the web client does, in the
    /// sessions it creates), so that an app shows something to tap before its own content exists.
    ///
    /// A cell whose `content` is an object carrying `navigate` (`{"screen", "params"}`) names the
    /// screen a tap on it navigates to; a param given as `":name"` takes the param `name` of the
    /// node the list is shown on.
    public struct SampleList: Sendable, Equatable {
        /// One section: its id and its cells, in order.
        public struct Section: Sendable, Equatable {
            /// Unique within the list, not empty.
            public var id: String
            /// The section's cells.
            public var items: [Item]

            /// Creates a section.
            public init(id: String, items: [Item]) {
                self.id = id
                self.items = items
            }
        }

        /// One cell.
        public struct Item: Sendable, Equatable {
            /// Unique within the whole list, not empty.
            public var id: String
            /// What kind of cell a client renders.
            public var kind: String
            /// What the cell shows, any JSON value (`null` when the file gives none); its
            /// `navigate` member, when it is an object, is ``navigate``.
            public var content: JSONValue
            /// The navigation a tap on the cell asks for, read from `content.navigate`.
            public var navigate: Target?

            /// Creates a cell; ``navigate`` is read from `content`.
            public init(id: String, kind: String, content: JSONValue) {
                self.id = id
                self.kind = kind
                self.content = content
                navigate = content.objectValue?["navigate"].flatMap(Target.init(reading:))
            }
        }

        /// Where a tap on a cell navigates: a screen and its params (a value `":name"` is the
        /// shown node's param `name`).
        public struct Target: Sendable, Equatable {
            /// The screen navigated to.
            public var screen: String
            /// Its params, as written.
            public var params: [String: JSONValue]

            /// Creates a target.
            public init(screen: String, params: [String: JSONValue] = [:]) {
                self.screen = screen
                self.params = params
            }

            /// Reads `{"screen", "params"?}`; `nil` for any other shape.
            init?(reading value: JSONValue) {
                guard let members = value.objectValue, let screen = members["screen"]?.stringValue,
                    members.keys.allSatisfy({ $0 == "screen" || $0 == "params" })
                else { return nil }
                let params = members["params"] ?? .null
                guard params == .null || params.objectValue != nil else { return nil }
                self.screen = screen
                self.params = params.objectValue ?? [:]
            }
        }

        /// The sections, in order.
        public var sections: [Section]

        /// Creates a sample list.
        public init(sections: [Section]) {
            self.sections = sections
        }

        /// Writes the list as `PUT …/list` takes it, contents in their canonical form.
        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.key("sections")
            writer.beginArray()
            for section in sections {
                writer.beginObject()
                writer.field("id", section.id)
                writer.key("items")
                writer.beginArray()
                for item in section.items {
                    writer.beginObject()
                    writer.field("id", item.id)
                    writer.field("kind", item.kind)
                    writer.key("content")
                    writer.canonicalValue(item.content)
                    writer.endObject()
                }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
    }
}
