/// Which columns a split view shows at regular width, as UIKit's
/// `UISplitViewController.DisplayMode` names them (the client lays the columns out; the tree,
/// the stacks and the focus are the same in every mode). A compact split view shows one column
/// as one stack whatever the mode.
public enum SplitDisplayMode: String, Sendable, CaseIterable {
    /// The client chooses for its width (every column where it fits).
    case automatic
    /// `detail` alone, the columns before it hidden.
    case secondaryOnly
    /// One column beside `detail`: `primary` with two columns, `supplementary` with three.
    case oneBesideSecondary
    /// One column over `detail`, which keeps its width underneath.
    case oneOverSecondary
    /// Three columns only: `primary` and `supplementary` beside `detail`.
    case twoBesideSecondary
    /// Three columns only: `primary` and `supplementary` over `detail`.
    case twoOverSecondary
    /// Three columns only: `primary` and `supplementary` push `detail` partly off screen.
    case twoDisplaceSecondary

    /// Whether the mode shows two columns beside or over `detail`, which needs three columns.
    public var needsThreeColumns: Bool {
        switch self {
        case .twoBesideSecondary, .twoOverSecondary, .twoDisplaceSecondary: true
        case .automatic, .secondaryOnly, .oneBesideSecondary, .oneOverSecondary: false
        }
    }
}
