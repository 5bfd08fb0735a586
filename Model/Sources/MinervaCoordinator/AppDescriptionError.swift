/// Why an app description was refused, naming the file and the key at fault.
public struct AppDescriptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or `built-in demo app`).
    public let source: String
    /// The dotted path of the key at fault (`screens.photo.style`), empty for the whole document.
    public let key: String
    /// What is wrong.
    public let message: String

    public var description: String {
        key.isEmpty ? "\(source): \(message)" : "\(source): \(key): \(message)"
    }
}
