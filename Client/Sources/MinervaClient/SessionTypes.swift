public import OpenAPIRuntime

// Names for the generated types of `openapi.yaml` that an app meets through MinervaSession.

/// A session's state document: its version, layout, app version, focus, coordinator tree,
/// navigators, tabs, flags, pending guarded target and `lastEvent`.
public typealias SessionState = Components.Schemas.StateFields

/// A node of the coordinator tree.
public typealias SessionNode = Components.Schemas.Node

/// The layout of a new session: `stack` (one base navigator) or `split` (primary and detail).
public typealias SessionLayout = Components.Schemas.Layout

/// A modal presentation style.
public typealias ModalStyle = Components.Schemas.ModalStyle

/// A screen's parameters, any JSON values: `["userId": "42"]`.
public typealias ScreenParams = [String: OpenAPIValueContainer]

/// A screen of a `setRoot` stack, with its parameters.
public typealias StackEntry = Components.Schemas.SetRootEntry

/// A section of a list as a client states it: its id and its cells.
public typealias ListSectionInput = Components.Schemas.ListSectionInput

/// A cell of a list as a client states it: its id, kind and content.
public typealias ListItemInput = Components.Schemas.ListItemInput

/// A section of a list as the server keeps it.
public typealias ListSection = Components.Schemas.ListSection

/// What changed between two versions of a list, in UICollectionView batch-update terms.
public typealias ListDiff = Components.Schemas.ListDiff

/// A cell's position in a list: section index and item index.
public typealias ListPosition = Components.Schemas.ListPosition

/// The answer to a list `PUT`: the new list version and the diff from the previous one.
public typealias ListPutAnswer = Components.Schemas.ListPutAnswer
