/// Why a list was refused.
public struct ListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the id at fault.
    public let description: String

    static func duplicateSection(_ id: String) -> ListError {
        ListError(description: "section id '\(id)' appears more than once; section ids must be unique in the list")
    }

    static func duplicateItem(_ id: String) -> ListError {
        ListError(description: "item id '\(id)' appears more than once; item ids must be unique in the whole list")
    }

    static func emptySectionID(at index: Int) -> ListError {
        ListError(description: "section \(index) has an empty id")
    }

    static func emptyItemID(section: Int, item: Int) -> ListError {
        ListError(description: "item \(item) of section \(section) has an empty id")
    }

    static func tooManyItems(_ count: Int, limit: Int) -> ListError {
        ListError(description: "the list has \(count) items; at most \(limit) are allowed (--max-list-items)")
    }

    static func patch(_ operation: String, _ problem: String) -> ListError {
        ListError(description: "\(operation): \(problem)")
    }
}
