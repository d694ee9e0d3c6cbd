import Testing
@testable import H2JColour
@testable import H2JContainer

/// `--colorspace srgb`'s LittleCMS transform and the profile its outputs carry.
@Suite("Conversion to sRGB")
struct SRGBTransformTests {
    static let displayP3 = ICCFromNCLX.profile(for: NCLX(primaries: 12, transfer: 13, matrix: 6, fullRange: true))

    static func converted(_ rgb: [UInt8], from profile: [UInt8]) throws -> [UInt8] {
        let transform = try SRGBTransform(from: profile)
        var out = [UInt8](repeating: 0, count: rgb.count)
        rgb.withUnsafeBytes { input in out.withUnsafeMutableBytes { transform.apply(input.baseAddress!, into: $0.baseAddress!, pixels: rgb.count / 3) } }
        return out
    }

    @Test("Display P3 to sRGB: red stays the reddest sRGB has, grey stays grey, and a mid colour lands where the primaries' matrix puts it")
    func displayP3() throws {
        let p3 = try #require(Self.displayP3)
        // Expected values: P3 → XYZ → sRGB in double precision, with the sRGB curve (computed outside LittleCMS).
        let out = try Self.converted([255, 0, 0, 128, 128, 128, 200, 60, 40, 30, 160, 90], from: p3)
        let expected: [Double] = [255, 0, 0, 128, 128, 128, 217.48, 41.64, 22.71, 0, 162.90, 82.01]
        for (index, (got, want)) in zip(out, expected).enumerated() {
            #expect(abs(Double(got) - want) <= 1.5, "sample \(index): \(got), expected \(want)")
        }
    }

    @Test("sRGB profiles are told apart from others: LittleCMS's own, and not Display P3 or an unreadable profile")
    func recognisesSRGB() throws {
        let srgb = try #require(SRGBProfile.bytes)
        #expect(SRGBTransform.isSRGB(srgb))
        #expect(!SRGBTransform.isSRGB(try #require(Self.displayP3)))
        #expect(!SRGBTransform.isSRGB([UInt8](repeating: 7, count: 300)))
        #expect(throws: ColourConversionError.self) { try SRGBTransform(from: [1, 2, 3]) }
    }

    @Test("The output profile is compact, v4, described as sRGB, and the same bytes each time (fixed date)")
    func outputProfile() throws {
        let bytes = try #require(SRGBProfile.bytes)
        #expect(bytes.count < 1_000, "\(bytes.count) bytes")
        let info = ICCProfileInfo(profile: bytes)
        #expect(info.version?.hasPrefix("4.") == true)
        #expect(info.description == "sRGB built-in")
        #expect(Array(bytes[24..<36]) == [0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
    }
}
