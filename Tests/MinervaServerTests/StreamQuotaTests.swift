import MicroHTTP
import Testing

@testable import MinervaServer

@Suite struct StreamQuotaTests {
    let home = ClientAddressGroup(ipv4: 0x0A00_0001)
    let away = ClientAddressGroup(ipv4: 0x0A00_0002)

    @Test func capsStreamsPerSessionAndPerAddressAndGivesPlacesBack() {
        var quota = StreamQuota(perSession: 2, perAddress: 3)
        #expect(quota.take(session: "a", address: home) == nil)
        #expect(quota.take(session: "a", address: home) == nil)
        let perSession = quota.take(session: "a", address: away)
        #expect(perSession?.status == 429)
        #expect(perSession?.message.contains("this session already has 2 event streams open") == true)
        #expect(quota.take(session: "b", address: home) == nil)
        let perAddress = quota.take(session: "c", address: home)
        #expect(perAddress?.status == 429)
        #expect(perAddress?.message.contains("your address already has 3 event streams open") == true)
        #expect(perAddress?.headers.contains(APIError.Header(name: "Retry-After", value: "5")) == true)
        // a refused stream took no place
        #expect(quota.count(session: "c") == 0)
        #expect(quota.open == 3)
        quota.release(session: "a", address: home)
        #expect(quota.open == 2)
        #expect(quota.take(session: "c", address: home) == nil)
        #expect(quota.take(session: "a", address: away) == nil)
    }

    @Test func noCapsAndRequestsInProcess() {
        var quota = StreamQuota(perSession: 0, perAddress: 0)
        for _ in 0..<100 { #expect(quota.take(session: "a", address: home) == nil) }
        var capped = StreamQuota(perSession: 0, perAddress: 1)
        #expect(capped.take(session: "a", address: nil) == nil)
        #expect(capped.take(session: "a", address: nil) == nil)
        capped.release(session: "a", address: nil)
        capped.release(session: "a", address: nil)
        capped.release(session: "a", address: nil)
        #expect(capped.count(session: "a") == 0)
    }
}
