import Testing

@testable import MinervaServer

@Suite struct LogThrottleTests {
    @Test func oneLinePerKeyPerPeriodWithTheCountHeldBack() {
        var throttle = LogThrottle<String>(period: 60)
        #expect(throttle.admit("a", now: 0) == 0)
        #expect(throttle.admit("a", now: 1) == nil)
        #expect(throttle.admit("a", now: 59) == nil)
        #expect(throttle.admit("b", now: 59) == 0)
        #expect(throttle.admit("a", now: 60) == 2)
        #expect(throttle.admit("a", now: 61) == nil)
        #expect(throttle.admit("a", now: 200) == 1)
    }

    @Test func forgetsSilentKeysWithoutLosingCurrentOnes() {
        var throttle = LogThrottle<Int>(period: 60)
        for key in 0..<5000 { #expect(throttle.admit(key, now: 0) == 0) }
        #expect(throttle.admit(1, now: 30) == nil)
        for key in 5000..<10000 { #expect(throttle.admit(key, now: 61) == 0) }
        // key 1 was logged at 0: a minute later it logs again, with the line held back at 30
        #expect(throttle.admit(1, now: 61) == 1)
        #expect(throttle.admit(9999, now: 62) == nil)
    }
}
