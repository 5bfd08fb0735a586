import ArgumentParser

/// `--store` (or `MINERVA_STORE`): `sqlite:PATH`, `memory`, or a PostgreSQL URL.
enum StoreOption: ExpressibleByArgument, CustomStringConvertible {
    case sqlite(String)
    case memory
    /// `postgres://user[:password]@host[:port]/database` (or `postgresql://`).
    case postgres(String)

    init?(argument: String) {
        if argument == "memory" {
            self = .memory
        } else if argument.hasPrefix("sqlite:"), argument.count > 7 {
            self = .sqlite(String(argument.dropFirst(7)))
        } else if argument.hasPrefix("postgres://") || argument.hasPrefix("postgresql://") {
            self = .postgres(argument)
        } else {
            return nil
        }
    }

    var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .memory: "memory"
        case .postgres(let url): Self.withoutPassword(url)
        }
    }

    var defaultValueDescription: String { description }

    /// Whether sessions live in this process's memory only.
    var isMemory: Bool {
        if case .memory = self { true } else { false }
    }

    /// A URL as it may be logged: its password replaced by `***`.
    static func withoutPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@"),
            let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }
}
