import H2JJPEG
import H2JMetadata
import H2JOutputPlan
import Testing
@testable import H2JJob
@testable import H2JSupport

/// `ConversionOptions.fields` declares every option once; the wire and the fingerprint
/// are derived from it. These tests take the fields from the struct itself (`Mirror`), so
/// a field added there fails here until `fields` says how it is carried, or why not.
@Suite("Conversion options: one declaration for the wire and the fingerprint")
struct ConversionOptionsCoverageTests {
    static var declared: [String] { Mirror(reflecting: ConversionOptions()).children.compactMap(\.label) }

    @Test("`fields` names each stored property exactly once, and each field's variation leaves the default")
    func everyField() {
        let listed = ConversionOptions.fields.map(\.property)
        #expect(listed.count == Set(listed).count, "a field listed twice: \(listed)")
        #expect(Set(listed) == Set(Self.declared), "declared: \(Self.declared.sorted()), listed: \(listed.sorted())")
        for field in ConversionOptions.fields {
            #expect(field.varied(ConversionOptions()) != ConversionOptions(), "varying \(field.property) changes the options")
        }
    }

    @Test("Every field but the parent's own crosses the wire, all varied at once and each alone")
    func wire() throws {
        var all = ConversionOptions()
        for field in ConversionOptions.fields where field.parentOnly == nil { all = field.varied(all) }
        #expect(try Self.roundTrip(all) == all)
        for field in ConversionOptions.fields {
            let one = field.varied(ConversionOptions())
            #expect((try Self.roundTrip(one) == one) == (field.parentOnly == nil), "\(field.property): crosses the wire unless the parent's own")
        }
    }

    @Test("Every field that shapes an output changes the state's fingerprint; the others say why not")
    func fingerprint() {
        let base = ConversionOptions().fingerprint
        for field in ConversionOptions.fields {
            let changed = field.varied(ConversionOptions()).fingerprint
            if case .never(let why) = field.fingerprint {
                #expect(changed == base && !why.isEmpty, "\(field.property) is not in the fingerprint")
            } else {
                #expect(changed != base, "\(field.property) is in the fingerprint: \(changed)")
            }
        }
    }

    /// States written by 0.2.0 record these fingerprints: they must still match, or every
    /// source of an archive would be converted again after an upgrade.
    @Test("The fingerprint is the one earlier versions wrote, for the defaults and for every field changed")
    func fingerprintIsStable() {
        #expect(ConversionOptions().fingerprint
                == "metadata=keep;quality=90;strip-gps=false;mark=true;background=#ffffff;max-pixels=256000000;images=all;stereo=mpo;hdr=ultrahdr;aux=")
        var options = ConversionOptions()
        (options.quality, options.metadata, options.stripGPS, options.mark) = (77, .strip, true, false)
        (options.background, options.maxPixels, options.images, options.stereo) = (RGBColor(red: 1, green: 2, blue: 3), 12_345_678, .primary, .split)
        (options.hdr, options.auxiliaries, options.maxSize, options.thumbnail) = (.sdr, [.depth, .gainmap], OutputBox(width: 1024, height: 768), true)
        (options.colorspace, options.progressive, options.optimize, options.sampling) = (.srgb, true, true, .s444)
        #expect(options.fingerprint == "metadata=strip;quality=77;strip-gps=true;mark=false;background=#010203;max-pixels=12345678;images=primary;stereo=split;hdr=sdr;aux=depth,gainmap;max-size=1024x768;thumbnail=true;colorspace=srgb;progressive=true;optimize=true;sampling=444")
    }

    @Test("A job's options that break a field's bounds are refused, not clamped into another meaning")
    func hostileValues() {
        for quality in [0, 101, -1, Int.max] {
            var out = WireWriter()
            var options = ConversionOptions()
            options.encode(to: &out)
            var bytes = out.bytes
            // quality follows metadata ("keep": an 8-byte length and 4 bytes).
            let at = 12
            withUnsafeBytes(of: Int64(quality).littleEndian) { bytes.replaceSubrange(at..<(at + 8), with: $0) }
            var reader = WireReader(bytes)
            #expect(throws: WireError.self, "quality \(quality)") { options = try ConversionOptions(from: &reader) }
        }
    }

    static func roundTrip(_ options: ConversionOptions) throws -> ConversionOptions {
        var out = WireWriter()
        options.encode(to: &out)
        var reader = WireReader(out.bytes)
        let decoded = try ConversionOptions(from: &reader)
        #expect(reader.isAtEnd)
        return decoded
    }
}
