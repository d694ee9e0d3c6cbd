import H2JContainer
import H2JSupport
import H2JUncompressed
import Testing

@Suite("uncC and cmpd")
struct UncompressedFormatTests {
    @Test("a version 1 profile expands to its fields")
    func profile() throws {
        let format = try UncompressedFormat(uncC: [1, 0, 0, 0] + Array("rgba".utf8), cmpd: nil)
        #expect(format.model == .rgb && format.hasAlpha && format.interleave == .pixel)
    }
}
