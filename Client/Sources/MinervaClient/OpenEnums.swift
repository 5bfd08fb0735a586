/// The strings of `openapi.yaml` that name one of a known set of values — a removal reason, a
/// presentation kind, a modal style, … — which later releases may add to. Each is a struct with a
/// constant for every value the contract lists, and keeps a value it does not know as it came
/// (the generated client would refuse it). The generated `Components.Schemas` types are these, by
/// the generator's `typeOverrides`; apps use them through those names (`ModalStyle`, …).
public enum OpenEnums {
    /// Why a node left the screen.
    public struct RemovalReason: OpenEnum {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let pop = Self(rawValue: "pop")
        public static let dismiss = Self(rawValue: "dismiss")
        public static let setRoot = Self(rawValue: "setRoot")
        public static let finish = Self(rawValue: "finish")
        public static let deepLink = Self(rawValue: "deepLink")
        public static let ancestorRemoved = Self(rawValue: "ancestorRemoved")
        public static let restore = Self(rawValue: "restore")
    }

    /// How a node came on screen.
    public struct PresentationKind: OpenEnum {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let app = Self(rawValue: "app")
        public static let root = Self(rawValue: "root")
        public static let push = Self(rawValue: "push")
        public static let present = Self(rawValue: "present")
        public static let tab = Self(rawValue: "tab")
        public static let detail = Self(rawValue: "detail")
    }

    /// A modal presentation style (UIKit's `UIModalPresentationStyle`).
    public struct ModalStyle: OpenEnum {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let automatic = Self(rawValue: "automatic")
        public static let fullScreen = Self(rawValue: "fullScreen")
        public static let pageSheet = Self(rawValue: "pageSheet")
        public static let formSheet = Self(rawValue: "formSheet")
        public static let overFullScreen = Self(rawValue: "overFullScreen")
        public static let popover = Self(rawValue: "popover")
        public static let currentContext = Self(rawValue: "currentContext")
        public static let overCurrentContext = Self(rawValue: "overCurrentContext")
        public static let custom = Self(rawValue: "custom")
    }

    /// How the session's base navigators are laid out.
    public struct Layout: OpenEnum {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let stack = Self(rawValue: "stack")
        public static let split = Self(rawValue: "split")
    }

    /// What resumes when a guard's flow finishes with `success`.
    public struct PendingOperation: OpenEnum {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let navigate = Self(rawValue: "navigate")
        public static let push = Self(rawValue: "push")
        public static let present = Self(rawValue: "present")
        public static let setRoot = Self(rawValue: "setRoot")
    }

    /// How a screen comes on screen by default.
    public struct PresentationMode: OpenEnum {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let push = Self(rawValue: "push")
        public static let present = Self(rawValue: "present")
    }

    /// How a flow ended.
    public struct FlowStatus: OpenEnum {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let success = Self(rawValue: "success")
        public static let cancelled = Self(rawValue: "cancelled")
    }
}

/// A string from a set of values that may grow; it reads and writes as the bare string.
public protocol OpenEnum: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible where RawValue == String {
    init(rawValue: String)
}

extension OpenEnum {
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}

/// A value of an open set that a request cannot carry: requests take only the values the
/// contract lists (a value read from a later release's answer may not be one of them).
public struct UnsupportedValue: Error, CustomStringConvertible {
    /// The request field.
    public let field: String
    /// The value.
    public let value: String

    public var description: String { "'\(value)' is not a value the server takes for '\(field)'" }
}

extension OpenEnum {
    /// The same value as a request field's generated enum.
    /// - Throws: ``UnsupportedValue`` when the request field does not take it.
    func requestValue<Value: RawRepresentable<String>>(for field: String) throws -> Value {
        guard let value = Value(rawValue: rawValue) else { throw UnsupportedValue(field: field, value: rawValue) }
        return value
    }
}
