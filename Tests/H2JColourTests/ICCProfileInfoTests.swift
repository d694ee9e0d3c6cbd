import H2JTestSupport
import Testing
@testable import H2JColour
@testable import H2JContainer

@Suite("ICC profile description and version")
struct ICCProfileInfoTests {
    typealias B = BoxBuilder

    /// A profile with a 128-byte header (version bytes at 8 and 9) and the given tags,
    /// laid out after the tag table in order.
    static func profile(version: (UInt8, UInt8), tags: [(String, [UInt8])]) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 128)
        header[8] = version.0
        header[9] = version.1
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        var table = B.u32(tags.count)
        var data: [UInt8] = []
        var offset = 128 + 4 + 12 * tags.count
        for (signature, bytes) in tags {
            table += Array(signature.utf8) + B.u32(offset) + B.u32(bytes.count)
            data += bytes
            offset += bytes.count
        }
        return header + table + data
    }

    /// textDescriptionType: ASCII (count includes the NUL), then an empty or given Unicode part.
    static func textDescription(_ ascii: String, unicode: String = "") -> [UInt8] {
        let asciiBytes = ascii.isEmpty ? [] : Array(ascii.utf8) + [0]
        let units = Array(unicode.utf16)
        return Array("desc".utf8) + B.u32(0) + B.u32(asciiBytes.count) + asciiBytes
            + B.u32(0) + B.u32(units.count) + units.flatMap { B.u16(Int($0)) }
            + [0, 0, 0] + [UInt8](repeating: 0, count: 67)
    }

    /// multiLocalizedUnicodeType with the given (language, country, text) records.
    static func multiLocalized(_ records: [(String, String, String)]) -> [UInt8] {
        var head = Array("mluc".utf8) + B.u32(0) + B.u32(records.count) + B.u32(12)
        var strings: [UInt8] = []
        let stringsStart = 16 + 12 * records.count
        for (language, country, text) in records {
            let encoded = Array(text.utf16).flatMap { B.u16(Int($0)) }
            head += Array(language.utf8) + Array(country.utf8) + B.u32(encoded.count) + B.u32(stringsStart + strings.count)
            strings += encoded
        }
        return head + strings
    }

    @Test("ICC v4 'mluc' description: the profile heic2jpg builds for Display P3 nclx")
    func generatedV4() throws {
        let profile = try #require(ICCFromNCLX.profile(for: NCLX(primaries: 12, transfer: 13, matrix: 6, fullRange: true)))
        let info = ICCProfileInfo(profile: profile)
        #expect(info.description == "Display P3, sRGB transfer (heic2jpg, from nclx 12/13)")
        #expect(info.version?.hasPrefix("4.") == true)
        #expect(info.bytes == profile.count)
    }

    @Test("ICC v2 'desc' description, ASCII part, padding trimmed")
    func v2() {
        let info = ICCProfileInfo(profile: Self.profile(version: (2, 0x10), tags: [
            ("cprt", Array("text\0\0\0\0Public domain\0".utf8)), ("desc", Self.textDescription("sRGB IEC61966-2.1  ")),
        ]))
        #expect(info.description == "sRGB IEC61966-2.1")
        #expect(info.version == "2.1")
    }

    @Test("ICC v2 'desc' with an empty ASCII part falls back to its Unicode part")
    func v2Unicode() {
        let info = ICCProfileInfo(profile: Self.profile(version: (2, 0x40), tags: [("desc", Self.textDescription("", unicode: "Écran ✓"))]))
        #expect(info.description == "Écran ✓")
    }

    @Test("'mluc' picks en-US, else English, else the first record; also inside a v2 profile")
    func languages() {
        let all = Self.multiLocalized([("fr", "FR", "Écran"), ("en", "GB", "Display (GB)"), ("en", "US", "Display")])
        #expect(ICCProfileInfo(profile: Self.profile(version: (4, 0x30), tags: [("desc", all)])).description == "Display")
        let english = Self.multiLocalized([("de", "DE", "Anzeige"), ("en", "GB", "Display (GB)")])
        #expect(ICCProfileInfo(profile: Self.profile(version: (2, 0), tags: [("desc", english)])).description == "Display (GB)")
        let other = Self.multiLocalized([("de", "DE", "Anzeige"), ("fr", "FR", "Écran")])
        #expect(ICCProfileInfo(profile: Self.profile(version: (4, 0), tags: [("desc", other)])).description == "Anzeige")
    }

    @Test("No 'desc' tag, an unknown tag type, or an empty text: no description")
    func absent() {
        #expect(ICCProfileInfo(profile: Self.profile(version: (4, 0), tags: [("cprt", Self.multiLocalized([("en", "US", "c")]))])).description == nil)
        #expect(ICCProfileInfo(profile: Self.profile(version: (4, 0), tags: [("desc", Array("XYZ \0\0\0\0".utf8))])).description == nil)
        #expect(ICCProfileInfo(profile: Self.profile(version: (4, 0), tags: [("desc", Self.multiLocalized([("en", "US", " ")]))])).description == nil)
        #expect(ICCProfileInfo(profile: []).version == nil)
    }

    @Test("Truncated and mutated profiles never trap; lies in the tag table are contained")
    func robustness() throws {
        let generated = try #require(ICCFromNCLX.profile(for: NCLX(primaries: 9, transfer: 1, matrix: 9, fullRange: true)))
        let profiles = [generated, Self.profile(version: (2, 0x10), tags: [("desc", Self.textDescription("sRGB", unicode: "sRGB"))])]
        var generator = SeededGenerator("ICCProfileInfoTests/robustness")
        for profile in profiles {
            for length in 0...profile.count { _ = ICCProfileInfo(profile: Array(profile.prefix(length))) }
            for _ in 0..<TestScale.iterations(3000) {
                var mutated = profile
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    // Bias mutations towards the header, the tag table and the desc tag's counts.
                    let limit = Bool.random(using: &generator) ? min(mutated.count, 220) : mutated.count
                    mutated[Int.random(in: 0..<limit, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                _ = ICCProfileInfo(profile: mutated)
            }
        }
        // Huge counts and offsets.
        let lying = Self.profile(version: (4, 0), tags: [("desc", Array("mluc".utf8) + B.u32(0) + B.u32(0xFFFF_FFFF) + B.u32(0xFFFF_FFFF)
                                                                    + Array("enUS".utf8) + B.u32(0xFFFF_FFFF) + B.u32(0xFFFF_FFF0))])
        #expect(ICCProfileInfo(profile: lying).description == nil)
        var wideTable = Self.profile(version: (4, 0), tags: [("desc", Self.textDescription("x"))])
        wideTable.replaceSubrange(128..<132, with: B.u32(0x7FFF_FFFF))
        #expect(ICCProfileInfo(profile: wideTable).description == "x")
    }
}
