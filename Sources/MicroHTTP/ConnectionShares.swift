/// The server's open connections by client address group, and the decision at each new
/// connection: admit it, shed another one to make room for it, or refuse it.
///
/// Fair shares: while the server is full, a newcomer is let in by shedding a connection of the
/// group holding the most — only of a group holding at least two more than the newcomer's, so
/// that groups with equal shares never shed each other's connections back and forth. Of that
/// group's connections, an idle keep-alive goes first, then one still sending its request, the
/// oldest first, and only one idle or sending for at least `shedAfter` seconds (a client that has
/// just connected has its chance to send). A request that has arrived whole is never shed; when
/// no one else can make room, the oldest long poll or stream of the largest group is answered
/// early instead, and its connection closes once the answer is sent. When no one can be shed yet, a newcomer that a larger group would make room for is let in
/// above the limit (by ``overdraft`` at most), and the excess is shed as soon as it can be.
///
/// A value with no clock and no sockets: the caller says what each connection is doing.
struct ConnectionShares<Connection: Hashable> {
    /// How many connections, and when one may be shed.
    struct Limits: Equatable {
        /// Open connections at most.
        var total: Int
        /// Open connections of one address group at most (0: no limit).
        var perGroup: Int
        /// Seconds a connection must have been idle, or sending its request, before it may be shed.
        var shedAfter: Double
    }

    /// What a connection is doing.
    enum Activity: Equatable {
        /// Waiting between requests since this time.
        case idle(since: Double)
        /// Receiving a request since this time (a new connection: since it opened).
        case receiving(since: Double)
        /// Its request arrived whole and is being answered.
        case answering
        /// Its request arrived whole and its answer waits (a long poll that may be answered
        /// early) or streams, since this time.
        case waiting(since: Double)
    }

    /// What to do with a new connection.
    enum Decision: Equatable {
        /// Let it in.
        case admit
        /// Shed this connection, then let the new one in.
        case shed(Connection, HTTPShedReason)
        /// Let it in above the limit: no one can be shed yet, but a group holding more than its
        /// own will be, once its connections are old enough.
        case admitAboveLimit
        /// Refuse it; if a wait is named, answer it early, so that its connection closes.
        case refuse(HTTPRefusalReason, endingEarly: Connection?)
    }

    /// The limits it decides by.
    let limits: Limits
    private var groupOf: [Connection: ClientAddressGroup] = [:]
    private var members: [ClientAddressGroup: Set<Connection>] = [:]
    /// After a look that found no one to shed and no wait: until `until` (when the first of those
    /// connections becomes old enough), a newcomer whose group holds at least `held` finds no one
    /// either, so the look is skipped (a burst of refused connections would otherwise look at
    /// every connection each). Forgotten when a connection opens, which can make a group larger.
    private var quiet: (until: Double, held: Int)?
    /// Places admitted but not yet reported open. libmicrohttpd's workers accept at once, each
    /// asking the accept policy and then reporting the connection open: a place admitted counts
    /// as held until then, so that two workers cannot both take a group's last place (or the
    /// server's), or until ``promiseLifetime`` has passed (a connection libmicrohttpd accepted but
    /// could not set up is never reported).
    private var promised: [(group: ClientAddressGroup, at: Double)] = []

    /// Seconds a place admitted is kept for a connection not yet reported open.
    static var promiseLifetime: Double { 1 }

    /// Creates an empty ledger.
    init(limits: Limits) {
        self.limits = limits
    }

    /// The connections open.
    var count: Int { groupOf.count }

    /// The connections open from one group.
    func count(of group: ClientAddressGroup) -> Int {
        members[group]?.count ?? 0
    }

    /// Every connection open.
    var connections: Dictionary<Connection, ClientAddressGroup>.Keys { groupOf.keys }

    /// Records a connection that opened.
    mutating func insert(_ connection: Connection, from group: ClientAddressGroup) {
        guard groupOf.updateValue(group, forKey: connection) == nil else { return }
        if let promise = promised.firstIndex(where: { $0.group == group }) { promised.remove(at: promise) }
        quiet = nil
        members[group, default: []].insert(connection)
    }

    /// Keeps the place of a connection from `group` just admitted (by ``admission(of:now:activity:)``)
    /// until it is reported open by ``insert(_:from:)``.
    mutating func promise(to group: ClientAddressGroup, now: Double) {
        promised.append((group, now))
    }

    /// Forgets a connection (it closed, or it is being shed); one already forgotten is ignored.
    mutating func remove(_ connection: Connection) {
        guard let group = groupOf.removeValue(forKey: connection) else { return }
        members[group]?.remove(connection)
        if members[group]?.isEmpty == true { members[group] = nil }
    }

    /// Connections let in above the limit while no one can be shed yet (every connection of
    /// the larger groups is younger than `shedAfter`, as in the first second of a burst); the
    /// excess is shed as soon as it can be (``excess(now:activity:)``).
    static var overdraft: Int { 64 }

    /// Connections a group may hold and still be let in above the limit: enough for a client
    /// (a browser opens up to 6), too few for a burst from a few addresses to use up the overdraft.
    static var overdraftPerGroup: Int { 4 }

    /// Decides about a new connection from `group`.
    /// - Parameters:
    ///   - group: the newcomer's address group.
    ///   - now: the time, in the seconds `activity` speaks in.
    ///   - activity: what an open connection is doing.
    /// - Complexity: O(1) while the server has room; when it is full, O(*g* log *g* + *n*) for
    ///   *g* groups holding more than the newcomer's and the *n* connections of those looked at.
    mutating func admission(of group: ClientAddressGroup, now: Double, activity: (Connection) -> Activity) -> Decision {
        promised.removeAll { now - $0.at > Self.promiseLifetime }
        let held = count(of: group) + promised.count(where: { $0.group == group })
        if limits.perGroup > 0, held >= limits.perGroup { return .refuse(.perAddress, endingEarly: nil) }
        let open = count + promised.count
        guard open >= limits.total else { return .admit }
        let (victim, wait) = candidates(forGroupHolding: held, now: now, activity: activity)
        if let victim { return .shed(victim.connection, victim.reason) }
        if held < Self.overdraftPerGroup, open < limits.total + Self.overdraft, members.contains(where: { $0.value.count > held + 1 }) {
            return .admitAboveLimit
        }
        return .refuse(.full, endingEarly: wait)
    }

    /// While more connections are open than the limit allows (newcomers let in above it): the
    /// connection to shed now, if one can be, else the wait to answer early.
    mutating func excess(now: Double, activity: (Connection) -> Activity) -> (victim: (connection: Connection, reason: HTTPShedReason)?, wait: Connection?) {
        guard count > limits.total else { return (nil, nil) }
        return candidates(forGroupHolding: 0, now: now, activity: activity)
    }

    /// The connection to shed for a newcomer whose group holds `held`, and else the wait to
    /// answer early: of the groups holding at least two more, the largest first.
    private mutating func candidates(forGroupHolding held: Int, now: Double, activity: (Connection) -> Activity) -> (
        victim: (connection: Connection, reason: HTTPShedReason)?, wait: Connection?
    ) {
        if let quiet, now < quiet.until, held >= quiet.held { return (nil, nil) }
        let larger = members.filter { $0.value.count > held + 1 }.sorted { $0.value.count > $1.value.count }
        // when the first of the connections looked at becomes old enough to be shed
        var firstEligible = now + limits.shedAfter
        // The oldest wait of the largest group that has one.
        var wait: Connection?
        for (_, connections) in larger {
            var idle: (connection: Connection, since: Double)?
            var receiving: (connection: Connection, since: Double)?
            var oldestWait: (connection: Connection, since: Double)?
            for connection in connections {
                switch activity(connection) {
                case .idle(let since) where now - since >= limits.shedAfter:
                    if idle.map({ since < $0.since }) ?? true { idle = (connection, since) }
                case .receiving(let since) where now - since >= limits.shedAfter:
                    if receiving.map({ since < $0.since }) ?? true { receiving = (connection, since) }
                case .waiting(let since):
                    if oldestWait.map({ since < $0.since }) ?? true { oldestWait = (connection, since) }
                case .idle(let since), .receiving(let since):
                    firstEligible = min(firstEligible, since + limits.shedAfter)
                case .answering:
                    break
                }
            }
            if let idle { return ((idle.connection, .idle), nil) }
            if let receiving { return ((receiving.connection, .slowRequest), nil) }
            wait = wait ?? oldestWait?.connection
        }
        if wait == nil { quiet = (firstEligible, held) }
        return (nil, wait)
    }
}
