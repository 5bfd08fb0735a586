import MinervaCoordinator
import TestSupport

/// Random app descriptions: a few screens pushed or presented, some with params, some that hold
/// links, one guarded, a single root, tabs (adapting to a sidebar or not) or a split view of two or
/// three columns, and routes through them; some with a lock over that root: an overlay flow that
/// `locked` brings, or one that clearing `unlocked` brings and its completion takes away.
enum RandomApps {
    /// An app made from `random`, and the names of its screens.
    static func make(_ random: inout SeededGenerator) -> (app: AppDescription, screens: [String]) {
        let count = Int.random(in: 3...7, using: &random)
        let screens = (0..<count).map { "s\($0)" }
        var entries: [String] = []
        for (index, screen) in screens.enumerated() {
            var fields: [String] = []
            // s0 and s1 may be roots, which are pushed and take no params.
            if index > 1, Bool.random(using: &random) { fields.append(#""presentation": "present""#) }
            if index > 1, Int.random(in: 0..<4, using: &random) == 0 { fields.append(#""params": ["id"]"#) }
            if Int.random(in: 0..<4, using: &random) == 0 { fields.append(#""embedInNavigation": true"#) }
            if index > 1, Int.random(in: 0..<4, using: &random) == 0 { fields.append(#""holdsLinks": true"#) }
            entries.append("\"\(screen)\": {\(fields.joined(separator: ", "))}")
        }
        entries.append(#""secret": {"requires": "signedIn", "otherwise": {"screen": "login"}}"#)
        entries.append(#""login": {"presentation": "present", "embedInNavigation": true}"#)
        let root =
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1: #"{"sidebar": \#(Bool.random(using: &random)), "tabs": [{"id": "a", "screen": "s0"}, {"id": "b", "screen": "s1"}]}"#
            case 2, 3: #"{"screen": "s0"}"#
            default: #"{"split": {"columns": \#(Int.random(in: 2...3, using: &random)), "primary": {"screen": "s0"}}}"#
            }
        var routes: [String] = [#"{"path": "/secret", "steps": [{"screen": "secret"}]}"#]
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let steps = (0..<Int.random(in: 1...3, using: &random)).map { _ -> String in
                let screen = screens.randomElement(using: &random)!
                return #"{"screen": "\#(screen)", "params": {"id": "x"}}"#
            }
            routes.append(#"{"path": "/r\#(index)", "steps": [\#(steps.joined(separator: ", "))]}"#)
        }
        let top: String
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            top = #""root": \#(root)"#
        default:
            entries.append(#""lock": {}"#)
            let completing = Bool.random(using: &random)
            let lock = completing ? #"{"root": {"screen": "lock"}, "overlay": true, "completes": "unlocked"}"# : #"{"root": {"screen": "lock"}, "overlay": true}"#
            let rule = completing ? #"{"unless": "unlocked", "flow": "lock"}"# : #"{"if": "locked", "flow": "lock"}"#
            top = #""flows": {"main": {"root": \#(root)}, "lock": \#(lock)}, "launch": [\#(rule), {"flow": "main"}]"#
            routes = routes.map { $0.replacingOccurrences(of: #"{"path""#, with: #"{"flow": "main", "path""#) }
        }
        let text = """
            {"name": "random", "scheme": "random", \(top),
             "screens": {\(entries.joined(separator: ", "))}, "routes": [\(routes.joined(separator: ", "))]}
            """
        do {
            return (try AppDescription.parse(Array(text.utf8), source: "random"), screens + ["secret", "login", "lock"])
        } catch {
            preconditionFailure("a random app is invalid: \(error)\n\(text)")
        }
    }
}
