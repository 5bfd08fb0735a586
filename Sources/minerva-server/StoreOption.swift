import ArgumentParser

/// `--store`: `sqlite:PATH` or `memory`.
enum StoreOption: ExpressibleByArgument, CustomStringConvertible {
    case sqlite(String)
    case memory

    init?(argument: String) {
        if argument == "memory" {
            self = .memory
        } else if argument.hasPrefix("sqlite:"), argument.count > 7 {
            self = .sqlite(String(argument.dropFirst(7)))
        } else {
            return nil
        }
    }

    var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .memory: "memory"
        }
    }

    var defaultValueDescription: String { description }
}
