@testable import MinervaSessions
import Testing

@Suite struct TokenTests {
    @Test func tokensAreRandomURLSafeAndComparedExactly() {
        let tokens = Set((0..<100).map { _ in Token.random(bytes: 32) })
        #expect(tokens.count == 100)
        for token in tokens {
            #expect(token.utf8.count == 43)
            #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
        #expect(Token.base64URL(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw")
        func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            a.withUnsafeBytes { left in b.withUnsafeBytes { Token.constantTimeEqual(left, $0) } }
        }
        #expect(equal(Array("abc".utf8), Array("abc".utf8)))
        #expect(!equal(Array("abc".utf8), Array("abd".utf8)))
        #expect(!equal(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!equal([], Array("a".utf8)))
        #expect(Token.matches("secret", hash: Token.hash("secret")))
        #expect(!Token.matches("secreT", hash: Token.hash("secret")))
    }
}
