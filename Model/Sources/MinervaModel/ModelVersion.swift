/// The version of the navigation model's rules: what the step makes of a state, a command, the
/// limits and a time. Two programs that run the same version answer every change with the same
/// block (the server answers each change with the version that applied it, and names it in
/// `GET /v1/server`), so a client that runs this model predicts the server's answer exactly.
///
/// It is bumped with any change to the step's output for any input, and the golden corpus
/// (`Model/Corpus/`: states, commands and the blocks they make) holds it: a rule changed without
/// a bump fails the corpus in the server's tests and in the Swift client's.
///
/// Version 2 adds changes numbered per device: a numbered change's block names its device and
/// number, a numbered change that changes nothing is a block of one `unchanged` event, the state
/// keeps each device's newest number (`devices`, counted by the session's size), and a number
/// applied already or past the next one is refused.
///
/// Version 3 adds list patches (`PATCH …/nodes/{node}/list`, ``ListPatch``): a change of some
/// of a list's cells by id, which makes the block a `PUT` of the result would.
///
/// Version 4 adds the form of a tab bar (`tabs.form` in the state document: a `sidebar` at regular
/// width when the app's tabs adapt to one, else `tabBar`).
///
/// Version 5 adds a split view's display mode (`POST …/display-mode`, the event
/// `displayModeChanged`, the state document's `displayMode`): which columns show at regular width.
///
/// Version 6 adds screens that hold links (`holdsLinks`): a deep link that arrives while such a
/// screen is the focus waits in `heldLinks` (`heldLinksChanged`), at most four, and every change
/// after which the focus no longer holds links applies them, in order, in its block.
///
/// Version 7 adds overlay flows (`"overlay": true`): a flow that its launch rule shows over the
/// session's flow (`overlay`, navigator `overlay`, the event `overlayChanged`) instead of switching;
/// navigation beneath it is refused (`overlaid`), deep links wait as pending until it leaves, and
/// clearing the flag that brings it keeps them.
///
/// Version 8 adds flow experiments: a session runs the app of its variants, and the change that
/// first shows it a screen where an experiment's variants differ (``MinervaCoordinator/AppDescription/Assignment/differs``)
/// ends its block with an `exposed` event; the state keeps each membership (`experiments`).
public enum ModelVersion {
    /// The version this build's step runs.
    public static let current = 8
}
