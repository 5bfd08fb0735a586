import Testing

@testable import MicroHTTP

/// The shedding policy as a value: connections are numbers, their activities a dictionary.
@Suite struct ConnectionSharesTests {
    typealias Shares = ConnectionShares<Int>

    let limits = Shares.Limits(total: 10, perGroup: 6, shedAfter: 1)

    /// A ledger holding `held[i]` connections from 10.0.0.(i+1), numbered from 0 in that order,
    /// each with the activity `activity(number)`.
    func ledger(_ held: [Int], limits: Shares.Limits? = nil) -> Shares {
        var shares = Shares(limits: limits ?? self.limits)
        var number = 0
        for (index, count) in held.enumerated() {
            for _ in 0..<count {
                shares.insert(number, from: group(UInt32(index + 1)))
                number += 1
            }
        }
        return shares
    }

    /// The decision of a ledger the test does not keep.
    func decision(_ held: [Int], of newcomer: ClientAddressGroup, now: Double, activity: (Int) -> Shares.Activity) -> Shares.Decision {
        var shares = ledger(held)
        return shares.admission(of: newcomer, now: now, activity: activity)
    }

    func group(_ last: UInt32) -> ClientAddressGroup {
        ClientAddressGroup(ipv4: 0x0A00_0000 | last)
    }

    @Test func admitsWhileThereIsRoom() {
        var shares = ledger([5, 4])
        #expect(shares.admission(of: group(9), now: 100) { _ in .answering } == .admit)
    }

    @Test func refusesAGroupAtItsOwnLimitEvenWithRoom() {
        var shares = ledger([6])
        #expect(shares.admission(of: group(1), now: 100) { _ in .idle(since: 0) } == .refuse(.perAddress, endingEarly: nil))
    }

    /// libmicrohttpd's workers accept at once: a second newcomer decided before the first is
    /// reported open must not take the same last place.
    @Test func aPlaceAdmittedIsHeldUntilItsConnectionIsReportedOpen() {
        var shares = ledger([5])
        #expect(shares.admission(of: group(1), now: 100) { _ in .answering } == .admit)
        shares.promise(to: group(1), now: 100)
        #expect(shares.admission(of: group(1), now: 100.1) { _ in .answering } == .refuse(.perAddress, endingEarly: nil))
        // reported open, it is held once, not twice: the group's sixth, and room is left for others
        shares.insert(99, from: group(1))
        #expect(shares.count(of: group(1)) == 6)
        #expect(shares.admission(of: group(2), now: 100.2) { _ in .answering } == .admit)
    }

    @Test func aPlaceAdmittedCountsAgainstTheServersLimitToo() {
        var shares = ledger([5, 4])
        #expect(shares.admission(of: group(3), now: 100) { _ in .answering } == .admit)
        shares.promise(to: group(3), now: 100)
        // 9 open and 1 promised: full, so a newcomer is let in above the limit at most
        #expect(shares.admission(of: group(4), now: 100) { _ in .answering } == .admitAboveLimit)
    }

    @Test func aPlaceNeverReportedOpenLapses() {
        var shares = ledger([5])
        shares.promise(to: group(1), now: 100)
        #expect(shares.admission(of: group(1), now: 100.5) { _ in .answering } == .refuse(.perAddress, endingEarly: nil))
        #expect(shares.admission(of: group(1), now: 100 + Shares.promiseLifetime + 0.1) { _ in .answering } == .admit)
    }

    @Test func whenFullShedsTheOldestSlowRequestOfTheLargestGroup() {
        // 10.0.0.1 holds 0…5, 10.0.0.2 holds 6…9; all sending slowly, 3 the oldest of the largest
        var shares = ledger([6, 4])
        let started = [0: 50.0, 1: 40, 2: 60, 3: 10, 4: 70, 5: 80, 6: 1, 7: 2, 8: 3, 9: 4]
        let decision = shares.admission(of: group(9), now: 100) { .receiving(since: started[$0]!) }
        #expect(decision == .shed(3, .slowRequest))
    }

    @Test func idleKeepAlivesGoBeforeSlowRequests() {
        var shares = ledger([6, 4])
        let decision = shares.admission(of: group(9), now: 100) { $0 == 4 ? .idle(since: 90) : .receiving(since: 1) }
        #expect(decision == .shed(4, .idle))
    }

    @Test func letsANewcomerInAboveTheLimitWhileNoOneCanBeShedYetThenShedsTheExcess() {
        var shares = ledger([6, 4])
        // everyone opened a moment ago: the newcomer gets in all the same, up to the overdraft
        #expect(shares.admission(of: group(9), now: 100) { _ in .receiving(since: 99.9) } == .admitAboveLimit)
        shares.insert(10, from: group(9))
        #expect(shares.excess(now: 100) { _ in .receiving(since: 99.9) }.victim == nil)
        // a second later the largest group's oldest goes
        let excess = shares.excess(now: 101) { .receiving(since: 99.9 + Double($0) / 100) }
        #expect(excess.victim?.connection == 0)
        #expect(excess.victim?.reason == .slowRequest)
        // or, when every one of them waits, the oldest wait ends early
        #expect(shares.excess(now: 101) { .waiting(since: 200 - Double($0)) }.wait == 5)
        // nor a group that already holds a client's worth
        #expect(decision([6, 4], of: group(2), now: 100) { _ in .receiving(since: 99.9) } == .refuse(.full, endingEarly: nil))
        // groups with equal shares are not let in above the limit
        #expect(decision([5, 5], of: group(1), now: 100) { _ in .receiving(since: 99.9) } == .refuse(.full, endingEarly: nil))
        // nor anyone past the overdraft
        var crowded = ledger([5 + Shares.overdraft, 5], limits: Shares.Limits(total: 10, perGroup: 0, shedAfter: 1))
        #expect(crowded.admission(of: group(9), now: 100) { _ in .answering } == .refuse(.full, endingEarly: nil))
    }

    @Test func neverShedsACompletedRequestNorAConnectionYoungerThanTheDeadline() {
        var shares = ledger([6, 4])
        // 10.0.0.1's connections are all answering or just opened; 10.0.0.2's one old slow request goes
        let decision = shares.admission(of: group(9), now: 100) { connection in
            switch connection {
            case 0...2: .answering
            case 3...5: .receiving(since: 99.5)
            case 8: .receiving(since: 20)
            default: .idle(since: 99.9)
            }
        }
        #expect(decision == .shed(8, .slowRequest))
    }

    @Test func groupsWithEqualSharesDoNotShedEachOther() {
        var shares = ledger([5, 5])
        #expect(shares.admission(of: group(1), now: 100) { _ in .receiving(since: 0) } == .refuse(.full, endingEarly: nil))
        // one less than the largest is not enough either: the swap would only move the imbalance
        var uneven = ledger([6, 4])
        #expect(uneven.admission(of: group(2), now: 100) { .receiving(since: Double($0)) } == .shed(0, .slowRequest))
        var close = ledger([5, 4, 1])
        #expect(close.admission(of: group(2), now: 100) { _ in .receiving(since: 0) } == .refuse(.full, endingEarly: nil))
    }

    @Test func aSmallerGroupsIdleConnectionGoesWhenTheLargestGroupIsBusyAnswering() {
        var shares = ledger([6, 4])
        let decision = shares.admission(of: group(9), now: 100) { $0 < 6 ? .answering : .idle(since: Double($0)) }
        #expect(decision == .shed(6, .idle))
    }

    @Test func aWaitIsAnsweredEarlyWhenNoOneCanBeShedNorLetInAboveTheLimit() {
        var full = ledger([6 + Shares.overdraft, 4], limits: Shares.Limits(total: 10, perGroup: 0, shedAfter: 1))
        let decision = full.admission(of: group(9), now: 100) { connection in
            switch connection {
            case 2: .waiting(since: 30)
            case 5: .waiting(since: 10)
            case 6 + Shares.overdraft + 1: .waiting(since: 5)
            default: .answering
            }
        }
        // the largest group's oldest wait; 10.0.0.2's older one is left alone
        #expect(decision == .refuse(.full, endingEarly: 5))
    }

    @Test func aFruitlessLookIsNotRepeatedUntilSomeoneCanBeShed() {
        var shares = ledger([6, 4])
        var looks = 0
        let young: (Int) -> Shares.Activity = { connection in
            looks += 1
            return .receiving(since: 99.5 + Double(connection) / 1000)
        }
        #expect(shares.admission(of: group(9), now: 100, activity: young) == .admitAboveLimit)
        let first = looks
        #expect(first == shares.count)
        // the same or a larger newcomer before the first connection is a second old: no look
        #expect(shares.admission(of: group(9), now: 100.2, activity: young) == .admitAboveLimit)
        #expect(shares.admission(of: group(2), now: 100.2, activity: young) == .refuse(.full, endingEarly: nil))
        #expect(looks == first)
        // once the oldest (connection 0, since 99.5) is old enough, it is shed
        #expect(shares.admission(of: group(9), now: 100.5, activity: young) == .shed(0, .slowRequest))
        // a connection that opens (a group may have grown) makes the next newcomer look again
        _ = shares.admission(of: group(9), now: 100.2, activity: young)
        let before = looks
        shares.insert(1000, from: group(7))
        _ = shares.admission(of: group(9), now: 100.2, activity: young)
        #expect(looks > before)
    }

    @Test func removalFreesRoomAndForgetsTheConnection() {
        var shares = ledger([6, 4])
        #expect(shares.count == 10)
        shares.remove(0)
        shares.remove(0)
        #expect(shares.count == 9)
        #expect(shares.count(of: group(1)) == 5)
        #expect(shares.admission(of: group(9), now: 100) { _ in .answering } == .admit)
        for connection in 6...9 { shares.remove(connection) }
        #expect(shares.count(of: group(2)) == 0)
        #expect(Set(shares.connections) == [1, 2, 3, 4, 5])
    }

    /// Five groups trying to hold more than the server has, a sixth asking now and then: every
    /// group ends within one connection of the others, and the sixth always gets in.
    @Test func attackersEndWithEqualSharesAndANewcomerAlwaysGetsIn() {
        var shares = Shares(limits: Shares.Limits(total: 100, perGroup: 30, shedAfter: 1))
        var next = 0
        var refusedNewcomers = 0
        for round in 0..<400 {
            let asking = round % 20 == 19 ? group(9) : group(UInt32(round % 5 + 1))
            switch shares.admission(of: asking, now: Double(round), activity: { _ in .receiving(since: 0) }) {
            case .admit, .admitAboveLimit:
                shares.insert(next, from: asking)
            case .shed(let victim, _):
                shares.remove(victim)
                shares.insert(next, from: asking)
            case .refuse:
                if asking == group(9) { refusedNewcomers += 1 }
            }
            next += 1
            // the newcomer's connection is answered and closed before it asks again
            if asking == group(9) { shares.remove(next - 1) }
        }
        #expect(refusedNewcomers == 0)
        let counts = (1...5).map { shares.count(of: group(UInt32($0))) }
        #expect(counts.max()! - counts.min()! <= 1)
        #expect(shares.count <= 100)
    }

    @Test func addressGroups() {
        #expect(ClientAddressGroup(ipv4: 0x7F00_0002).description == "127.0.0.2")
        let a: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 2] + [0, 0, 0, 0, 0, 0, 0, 1]
        let b: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 2] + [0xff, 0, 0, 0, 0, 0, 0, 9]
        let c: [UInt8] = [0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 1]
        #expect(ClientAddressGroup(ipv6: a) == ClientAddressGroup(ipv6: b))
        #expect(ClientAddressGroup(ipv6: a) != ClientAddressGroup(ipv6: c))
        #expect(ClientAddressGroup(ipv6: a).description == "2001:db8:1:2::/64")
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 2]
        #expect(ClientAddressGroup(ipv6: mapped) == ClientAddressGroup(ipv4: 0x7F00_0002))
    }
}
