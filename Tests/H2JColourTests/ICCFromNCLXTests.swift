import Testing
@testable import H2JColour
@testable import H2JContainer
@testable import H2JSupport

@Suite("ICC profiles built from nclx")
struct ICCFromNCLXTests {
    func nclx(_ primaries: Int, _ transfer: Int) -> NCLX {
        NCLX(primaries: primaries, transfer: transfer, matrix: 6, fullRange: true)
    }

    /// The ASCII text of the profile's description ('desc' tag: a v4 'mluc' record).
    func description(_ profile: [UInt8]) -> String {
        let reader = ByteReader(profile)
        let count = Int(reader.u32(128) ?? 0)
        for index in 0..<count {
            let entry = 132 + 12 * index
            guard reader.fourCC(entry) == "desc", let offset = reader.u32(entry + 4), let size = reader.u32(entry + 8),
                  let tag = reader.slice(Int(offset), Int(size)), let length = ByteReader(tag).u32(20),
                  let start = ByteReader(tag).u32(24), let text = ByteReader(tag).slice(Int(start), Int(length))
            else { continue }
            // UTF-16BE.
            return String(decoding: stride(from: 1, to: text.count, by: 2).map { text[$0] }, as: UTF8.self)
        }
        return ""
    }

    @Test("sRGB (BT.709 primaries, sRGB or unspecified transfer) needs no profile")
    func srgbUntagged() {
        #expect(ICCFromNCLX.profile(for: nclx(1, 13)) == nil)
        #expect(ICCFromNCLX.profile(for: nclx(1, 2)) == nil)
        #expect(ICCFromNCLX.profile(for: nclx(1, 1)) != nil, "BT.709's camera curve is not sRGB's")
    }

    @Test("Unspecified primaries, PQ and HLG get no profile")
    func noProfile() {
        #expect(ICCFromNCLX.profile(for: nclx(2, 13)) == nil)
        #expect(ICCFromNCLX.profile(for: nclx(9, 16)) == nil)
        #expect(ICCFromNCLX.profile(for: nclx(9, 18)) == nil)
    }

    @Test("Display P3 and BT.2020 profiles: valid v4 headers, named, deterministic, cached")
    func wideGamut() throws {
        let p3 = try #require(ICCFromNCLX.profile(for: nclx(12, 13)))
        let reader = ByteReader(p3)
        #expect(reader.fourCC(36) == "acsp")
        #expect(reader.u32(0) == UInt32(p3.count))
        #expect(reader.u8(8) == 4, "ICC v4")
        #expect(reader.fourCC(12) == "mntr" && reader.fourCC(16) == "RGB " && reader.fourCC(20) == "XYZ ")
        #expect(reader.slice(24, 12) == [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0], "fixed date 2026-01-01")
        #expect(description(p3) == "Display P3, sRGB transfer (heic2jpg, from nclx 12/13)")
        #expect(p3.count < 1024)
        let bt2020 = try #require(ICCFromNCLX.profile(for: nclx(9, 14)))
        #expect(description(bt2020) == "BT.2020, BT.709 transfer (heic2jpg, from nclx 9/14)")
        #expect(ICCFromNCLX.profile(for: nclx(12, 13)) == p3)
    }
}
