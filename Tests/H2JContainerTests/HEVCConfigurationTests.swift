import H2JTestSupport
import Testing
@testable import H2JContainer

@Suite("hvcC configuration record parsing")
struct HEVCConfigurationTests {
    let vps: [UInt8] = [0x40, 0x01, 0x0C, 0x01]
    let sps: [UInt8] = [0x42, 0x01, 0x01]
    let pps: [UInt8] = [0x44, 0x01, 0xC1, 0x72]
    let sei: [UInt8] = [0x4E, 0x01, 0x05, 0xFF]

    @Test("Fields and every NAL unit of every array, in order")
    func fields() throws {
        let payload = HvcCBuilder.payload(chroma: 2, lumaDepth: 10, chromaDepth: 12, lengthSize: 2,
                                          arrays: [(32, [vps]), (33, [sps]), (34, [pps, pps + [0x80]]), (39, [sei])])
        let configuration = try HEVCConfiguration.parse(payload + [0xAA, 0xBB])
        #expect(configuration == HEVCConfiguration(chromaFormat: 2, bitDepthLuma: 10, bitDepthChroma: 12, lengthSize: 2,
                                                   parameterSets: [vps, sps, pps, pps + [0x80], sei]))
        #expect(configuration.parameterSets.map(HEVCConfiguration.nalUnitType) == [32, 33, 34, 34, 39])
    }

    @Test("Length sizes 1, 2 and 4; chroma formats 0–3; no arrays at all")
    func ranges() throws {
        for (bits, size) in [(UInt8(0), 1), (1, 2), (3, 4)] {
            #expect(try HEVCConfiguration.parse(HvcCBuilder.payload(lengthSize: bits + 1, arrays: [])).lengthSize == size)
        }
        for chroma in UInt8(0)...3 {
            #expect(try HEVCConfiguration.parse(HvcCBuilder.payload(chroma: chroma, arrays: [])).chromaFormat == Int(chroma))
        }
        #expect(try HEVCConfiguration.parse(HvcCBuilder.payload(arrays: [])).parameterSets.isEmpty)
    }

    @Test("Malformed records are named, never trap")
    func malformed() {
        let valid = HvcCBuilder.payload(arrays: [(32, [vps]), (33, [sps]), (34, [pps])])
        #expect(throws: HEIFError.truncatedBox("hvcC")) { try HEVCConfiguration.parse([]) }
        #expect(throws: HEIFError.truncatedBox("hvcC")) { try HEVCConfiguration.parse(Array(valid.prefix(22))) }
        // The third array's header is cut after its type byte.
        #expect(throws: HEIFError.truncatedBox("hvcC")) { try HEVCConfiguration.parse(Array(valid.prefix(23 + 9 + 8 + 2))) }
        #expect(throws: HEIFError.malformedBox("hvcC", reason: "lengthSizeMinusOne is 2; NAL unit lengths must take 1, 2 or 4 bytes")) {
            try HEVCConfiguration.parse(HvcCBuilder.payload(lengthSize: 3, arrays: []))
        }
        #expect(throws: HEIFError.malformedBox("hvcC", reason: "a 4-byte NAL unit of array 2 runs past the \(valid.count - 1)-byte record")) {
            try HEVCConfiguration.parse(Array(valid.dropLast()))
        }
        #expect(throws: HEIFError.malformedBox("hvcC", reason: "array 0 holds a NAL unit of 1 bytes, shorter than a NAL unit header")) {
            try HEVCConfiguration.parse(HvcCBuilder.payload(arrays: [(32, [[0x40]])]))
        }
        // An array that claims 65535 NAL units.
        var huge = HvcCBuilder.payload(arrays: [(32, [vps])])
        huge[24] = 0xFF
        huge[25] = 0xFF
        #expect(throws: HEIFError.malformedBox("hvcC", reason: "more than 1024 NAL units")) { try HEVCConfiguration.parse(huge) }
    }

    @Test("No mutation of a valid record makes the parser trap")
    func mutations() {
        let valid = HvcCBuilder.payload(arrays: [(32, [vps]), (33, [sps]), (34, [pps]), (39, [sei, sei])])
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        var parsed = 0, refused = 0
        for _ in 0..<TestScale.iterations(5000) {
            var bytes = valid
            for _ in 0...random(3) {
                switch random(4) {
                case 0: bytes[random(bytes.count)] = UInt8(random(256))
                case 1: bytes[random(bytes.count)] = [0, 0xFF, 0x7F, 0x80, 0x03][random(5)]
                case 2: bytes.removeLast(random(min(bytes.count, 12)))
                default: bytes.insert(UInt8(random(256)), at: random(bytes.count))
                }
            }
            do {
                let configuration = try HEVCConfiguration.parse(bytes)
                #expect([1, 2, 4].contains(configuration.lengthSize))
                #expect(configuration.parameterSets.allSatisfy { $0.count >= 2 })
                parsed += 1
            } catch {
                refused += 1
            }
        }
        #expect(parsed > 0 && refused > 0, "mutations both keep and break the record")
    }
}
