// The names of the client's first release, for apps written against it: each one now names the
// client's own value type (the generated types they were are internal).

/// Renamed ``Event``.
@available(*, deprecated, renamed: "Event")
public typealias SessionEvent = Event
/// Renamed ``UnknownEvent``.
@available(*, deprecated, renamed: "UnknownEvent")
public typealias UnknownSessionEvent = UnknownEvent
/// Renamed ``Params``.
@available(*, deprecated, renamed: "Params")
public typealias ScreenParams = Params
/// Renamed ``Layout``.
@available(*, deprecated, renamed: "Layout")
public typealias SessionLayout = Layout
/// Renamed ``Node``.
@available(*, deprecated, renamed: "Node")
public typealias SessionNode = Node
/// Renamed ``ListSection``: one type states a list and reads it back.
@available(*, deprecated, renamed: "ListSection")
public typealias ListSectionInput = ListSection
/// Renamed ``ListItem``: one type states a cell and reads it back.
@available(*, deprecated, renamed: "ListItem")
public typealias ListItemInput = ListItem
/// Renamed ``ListPage``.
@available(*, deprecated, renamed: "ListPage")
public typealias ListPageAnswer = ListPage

extension MinervaSession {
    /// Renamed ``FlowStatus``.
    @available(*, deprecated, renamed: "FlowStatus")
    public typealias FinishStatus = FlowStatus
}
