extension AppDescription {
    /// A root flow: what the session shows at its base while the launch rules choose it
    /// (onboarding, sign-in, the main tabs).
    public struct Flow: Sendable, Equatable {
        /// The flow's name.
        public var name: String
        /// Its base: one screen, tabs or a split view.
        public var root: Root
        /// The flag that a `finish` with `success` of one of its base roots sets.
        public var completes: String?
        /// Whether it is shown over the flow beneath rather than instead of it (a PIN lock after
        /// backgrounding): at window level, full screen, while its launch rule holds; that flow
        /// keeps every node, list and UI state until the overlay leaves
        /// (``CoordinatorTree/overlay``). Its root is one screen.
        public var overlay: Bool

        /// Creates a flow.
        public init(name: String, root: Root, completes: String? = nil, overlay: Bool = false) {
            self.name = name
            self.root = root
            self.completes = completes
            self.overlay = overlay
        }
    }

    /// One launch rule: it holds when its `if` flag is set and its `unless` flag is not.
    public struct LaunchRule: Sendable, Equatable {
        /// The flag that must be set, if any.
        public var ifFlag: String?
        /// The flag that must not be set, if any.
        public var unless: String?
        /// The flow chosen when the rule holds.
        public var flow: String

        /// Creates a rule.
        public init(ifFlag: String? = nil, unless: String? = nil, flow: String) {
            self.ifFlag = ifFlag
            self.unless = unless
            self.flow = flow
        }

        /// Whether the rule holds for a session with these flags.
        public func holds(for flags: Set<String>) -> Bool {
            (ifFlag.map(flags.contains) ?? true) && !(unless.map(flags.contains) ?? false)
        }

        /// Whether it holds whatever the flags.
        public var holdsAlways: Bool { ifFlag == nil && unless == nil }
    }

    /// The overlay a session with these flags shows over its flow: the flow of the first launch
    /// rule that holds, when that flow is an overlay (``Flow/overlay``).
    public func launchOverlay(for flags: Set<String>) -> String? {
        guard let rule = launch.first(where: { $0.holds(for: flags) }), flows[rule.flow]?.overlay == true else { return nil }
        return rule.flow
    }

    /// The place of a flow among the launch rules (its first rule's index): a deep link into a
    /// flow later than the session's waits for it; one into an earlier flow is refused.
    public func launchRank(of flow: String) -> Int {
        launch.firstIndex { $0.flow == flow } ?? launch.count
    }
}
