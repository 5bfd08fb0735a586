import ArgumentParser

/// A length of time given on the command line: `90`, `90s`, `15m`, `24h` or `7d`.
struct Duration: ExpressibleByArgument, Sendable {
    /// The length in seconds.
    let seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
    }

    init?(argument: String) {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = Substring(argument)
        var factor = 1.0
        if let last = text.last, let unit = units[last] {
            factor = unit
            text = text.dropLast()
        }
        guard let value = Double(text), value > 0, value.isFinite else { return nil }
        seconds = value * factor
    }

    var defaultValueDescription: String {
        seconds.truncatingRemainder(dividingBy: 3600) == 0 ? "\(Int(seconds / 3600))h" : "\(seconds)s"
    }
}
