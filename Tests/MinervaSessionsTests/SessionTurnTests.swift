import Locking
import MinervaModel
@testable import MinervaSessions
import Testing

/// The session's turn alone, through every transition: work starts, waits in order or is
/// refused; a write's end hands the turn on; a conflict's retry keeps it; closing refuses
/// what waits, a deletion during a write included.
@Suite struct SessionTurnTests {
    /// A deletion whose completion records its outcome under `name`.
    static func deletion(_ name: String, into outcomes: Outcomes) -> LiveSession.QueuedWork {
        .deletion(precondition: nil) { result in outcomes.record(name, result) }
    }

    /// The name each waiting work item was made with, in the order the turn hands them on.
    static func drain(_ turn: inout SessionTurn, _ outcomes: Outcomes) -> [String] {
        var started: [String] = []
        while let work = turn.next() {
            guard case .deletion(_, let completion) = work else { continue }
            completion(.success(()))
            started.append(outcomes.last ?? "?")
        }
        return started
    }

    @Test func workStartsAtOnceWhileTheTurnIsFreeAndIsNotMadeToWait() {
        var turn = SessionTurn()
        var made = false
        #expect(turn.arrive({ made = true; return Self.deletion("a", into: Outcomes()) }()) == .start)
        #expect(!made && turn.phase == .free && turn.next() == nil)
    }

    @Test func workWaitsInArrivalOrderWhileAWriteIsWithTheStore() {
        let outcomes = Outcomes()
        var turn = SessionTurn()
        #expect(turn.arrive(Self.deletion("first", into: outcomes)) == .start)
        turn.beginWrite()
        for name in ["a", "b", "c"] { #expect(turn.arrive(Self.deletion(name, into: outcomes)) == .wait) }
        #expect(turn.next() == nil, "nothing starts while the write holds the turn")
        turn.endWrite()
        #expect(turn.phase == .free)
        #expect(Self.drain(&turn, outcomes) == ["a", "b", "c"])
    }

    @Test func workThatHandsAWriteToTheStoreHoldsTheTurnFromTheOthersBehindIt() {
        let outcomes = Outcomes()
        var turn = SessionTurn()
        turn.beginWrite()
        _ = turn.arrive(Self.deletion("a", into: outcomes))
        _ = turn.arrive(Self.deletion("b", into: outcomes))
        turn.endWrite()
        // "a" starts and hands a write to the store: "b" waits for that one to end.
        #expect(turn.next() != nil)
        turn.beginWrite()
        #expect(turn.next() == nil && turn.arrive(Self.deletion("c", into: outcomes)) == .wait)
        turn.endWrite()
        #expect(Self.drain(&turn, outcomes) == ["b", "c"])
    }

    @Test func aConflictsRetryKeepsTheTurnUntilItsOwnWriteEnds() {
        let outcomes = Outcomes()
        var turn = SessionTurn()
        turn.beginWrite()
        _ = turn.arrive(Self.deletion("a", into: outcomes))
        // The write conflicted: the store's answer ends it, and its retry takes the turn again
        // before anything waiting may start.
        turn.endWrite()
        turn.beginWrite()
        #expect(turn.next() == nil && turn.arrive(Self.deletion("b", into: outcomes)) == .wait)
        // The retry reads the store, then runs again: its turn is freed for its own start…
        turn.endWrite()
        // …which hands another write: still held.
        turn.beginWrite()
        #expect(turn.next() == nil)
        turn.endWrite()
        #expect(Self.drain(&turn, outcomes) == ["a", "b"])
    }

    @Test func closingRefusesWhatWaitsAndEveryLaterArrivalAWriteInFlightIncluded() {
        let outcomes = Outcomes()
        var turn = SessionTurn()
        turn.beginWrite()
        _ = turn.arrive(Self.deletion("a", into: outcomes))
        _ = turn.arrive(Self.deletion("b", into: outcomes))
        let refused = turn.close()
        #expect(refused.count == 2 && turn.isClosed)
        #expect(turn.close().isEmpty, "closing again refuses nothing twice")
        #expect(turn.arrive(Self.deletion("c", into: outcomes)) == .refuse)
        // The write in flight ends after the close: the session stays closed, nothing starts.
        turn.endWrite()
        #expect(turn.phase == .closed && turn.next() == nil)
    }

    @Test func aDeletionWaitingBehindAWriteStartsInItsTurnAndClosesTheRest() {
        let outcomes = Outcomes()
        var turn = SessionTurn()
        turn.beginWrite()
        _ = turn.arrive(Self.deletion("delete", into: outcomes))
        _ = turn.arrive(Self.deletion("after", into: outcomes))
        turn.endWrite()
        // The deletion starts and hands its write; once stored the session closes.
        #expect(turn.next() != nil)
        turn.beginWrite()
        let refused = turn.close()
        turn.endWrite()
        #expect(refused.count == 1 && turn.next() == nil && turn.arrive(Self.deletion("late", into: outcomes)) == .refuse)
    }
}

/// Outcomes of completions, by the name their work was made with.
final class Outcomes: Sendable {
    private let names = Locked<[String]>([])

    func record(_ name: String, _ result: Result<Void, SessionError>) {
        names.withLock { $0.append(name) }
    }

    var last: String? { names.withLock { $0.last } }
}
