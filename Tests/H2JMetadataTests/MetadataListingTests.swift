import H2JTestSupport
import Testing
@testable import H2JMetadata

/// `compare --html`'s tag lists: every EXIF entry named and valued, pointers left out;
/// every XMP property with its path; an ICC profile's header and tags; each never traps.
@Suite("Metadata listings for the compare page")
struct MetadataListingTests {
    static func tag(_ tags: [MetadataTag], _ name: String) -> MetadataTag? { tags.first { $0.name == name } }

    @Test("EXIF: names as exiftool spells them, values typed, categories, and no pointer or offset")
    func exif() throws {
        for bigEndian in [false, true] {
            let tiff = EXIFTestTIFF.typical(bigEndian: bigEndian).build().bytes
            let tags = EXIFListing.tags(try EXIFDirectory(tiff: tiff))
            #expect(Self.tag(tags, "Make")?.value == "Apple" && Self.tag(tags, "Make")?.group == "IFD0")
            #expect(Self.tag(tags, "Orientation")?.value == "6")
            #expect(Self.tag(tags, "XResolution")?.value == "72/1")
            #expect(Self.tag(tags, "ExifImageWidth")?.value == "4032" && Self.tag(tags, "ExifImageWidth")?.group == "ExifIFD")
            #expect(Self.tag(tags, "GPSLatitude")?.value == "47/1 13/1 38240039/1000000")
            #expect(Self.tag(tags, "GPSLatitude")?.category == .location && Self.tag(tags, "GPSLatitudeRef")?.category == .location)
            #expect(Self.tag(tags, "DateTimeOriginal")?.category == .captureTime)
            #expect(Self.tag(tags, "MakerNote")?.category == .makerNote && Self.tag(tags, "MakerNote")?.value == "35 bytes")
            #expect(Self.tag(tags, "InteropIndex")?.value == "R98" && Self.tag(tags, "InteropIndex")?.group == "InteropIFD")
            #expect(tags.filter { $0.name == "Orientation" }.map(\.group) == ["IFD0", "IFD1"], "IFD1's own Orientation is its own row")
            for pointer in ["ExifOffset", "GPSInfo", "InteropOffset", "ThumbnailOffset", "ThumbnailLength"] {
                #expect(Self.tag(tags, pointer) == nil, "\(pointer) is structure, not information")
            }
        }
    }

    @Test("EXIF: an unnamed tag by number, undefined bytes as hex or text, long values shortened")
    func exifValues() throws {
        var t = EXIFTestTIFF()
        t.ifd0 = [EXIFTestTIFF.Entry(0x1234, .short([1, 2])), EXIFTestTIFF.Entry(0x010E, .ascii(String(repeating: "x", count: 400)))]
        t.exif = [EXIFTestTIFF.Entry(0x9000, .undefined(Array("0232".utf8))), EXIFTestTIFF.Entry(0x9101, .undefined([1, 2, 3, 0]))]
        let tags = EXIFListing.tags(try EXIFDirectory(tiff: t.build().bytes))
        #expect(Self.tag(tags, "0x1234")?.value == "1 2")
        #expect(Self.tag(tags, "ExifVersion")?.value == "0232")
        #expect(Self.tag(tags, "ComponentsConfiguration")?.value == "01020300")
        #expect(Self.tag(tags, "ImageDescription")?.value == String(repeating: "x", count: MetadataTag.maxValueCharacters) + "…")
    }

    static let packet = """
        <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
          exif:GPSLatitude="47,13.6N" photoshop:City="Z&amp;rich" xmp:Rating="4">
        <dc:creator><rdf:Seq><rdf:li>Ann</rdf:li><rdf:li>Bob &lt;b&gt;</rdf:li></rdf:Seq></dc:creator>
        <dc:title><rdf:Alt><rdf:li xml:lang="x-default">A &#x263A; title</rdf:li></rdf:Alt></dc:title>
        <Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource"><Iptc4xmpExt:City>Bern</Iptc4xmpExt:City></rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>
        <xmp:CreateDate>2024-05-17T14:23:09</xmp:CreateDate>
        <xmpMM:DerivedFrom stRef:documentID="abc"/>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """

    @Test("XMP: attributes, element text, arrays joined, structures by path, entities undone, categories")
    func xmp() {
        let tags = XMPListing.tags(Array(Self.packet.utf8))
        #expect(tags.map(\.name) == ["exif:GPSLatitude", "photoshop:City", "xmp:Rating", "dc:creator", "dc:title",
                                     "Iptc4xmpExt:LocationShown/Iptc4xmpExt:City", "xmp:CreateDate", "xmpMM:DerivedFrom/stRef:documentID"])
        #expect(Self.tag(tags, "photoshop:City")?.value == "Z&rich" && Self.tag(tags, "photoshop:City")?.category == .location)
        #expect(Self.tag(tags, "exif:GPSLatitude")?.category == .location)
        #expect(Self.tag(tags, "dc:creator")?.value == "Ann; Bob <b>" && Self.tag(tags, "dc:creator")?.category == .identifying)
        #expect(Self.tag(tags, "dc:title")?.value == "A ☺ title" && Self.tag(tags, "dc:title")?.category == nil)
        #expect(Self.tag(tags, "Iptc4xmpExt:LocationShown/Iptc4xmpExt:City")?.category == .location)
        #expect(Self.tag(tags, "xmp:CreateDate")?.category == .captureTime && Self.tag(tags, "xmp:Rating")?.group == "xmp")
    }

    @Test("XMP: a packet cut anywhere, or made of markup alone, lists what it can and never traps")
    func xmpDamaged() {
        let bytes = Array(Self.packet.utf8)
        for cut in stride(from: 0, through: bytes.count, by: 7) { _ = XMPListing.tags(Array(bytes.prefix(cut))) }
        _ = XMPListing.tags(Array(String(repeating: "<a:b c:d='", count: 5000).utf8))
        _ = XMPListing.tags(Array(String(repeating: "<a:b>", count: 5000).utf8) + [0xFF, 0xFE, 0x26])
        let many = (0..<3000).map { "<p:n\($0)>v</p:n\($0)>" }.joined()
        #expect(XMPListing.tags(Array(many.utf8)).count == XMPListing.maxProperties)
    }

    @Test("ICC: the header's fields and each tag by type; a cut or lying profile never traps")
    func icc() {
        var profile = [UInt8](repeating: 0, count: 128)
        func put(_ offset: Int, _ text: String) { for (i, b) in text.utf8.enumerated() { profile[offset + i] = b } }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        profile[8] = 4; profile[9] = 0x30
        put(12, "mntr"); put(16, "RGB "); put(20, "XYZ "); put(36, "acsp"); put(48, "APPL")
        let desc = Array("desc".utf8) + [0, 0, 0, 0] + u32(6) + Array("Hello\u{0}".utf8)
        let wtpt = Array("XYZ ".utf8) + [0, 0, 0, 0] + u32(0xF6D6) + u32(0x10000) + u32(0xD32D)
        let curv = Array("curv".utf8) + [0, 0, 0, 0] + u32(1) + [0x02, 0x33, 0, 0]
        let table = [("desc", desc), ("wtpt", wtpt), ("rTRC", curv), ("zzzz", [UInt8](repeating: 7, count: 8))]
        profile += u32(table.count)
        var offset = 132 + 12 * table.count
        for (name, data) in table { profile += Array(name.utf8) + u32(offset) + u32(data.count); offset += data.count }
        for (_, data) in table { profile += data }
        let tags = ICCListing.tags(profile)
        #expect(Self.tag(tags, "version")?.value == "4.3.0" && Self.tag(tags, "class")?.value == "mntr")
        #expect(Self.tag(tags, "colour space")?.value == "RGB " && Self.tag(tags, "manufacturer")?.value == "APPL")
        #expect(Self.tag(tags, "desc (description)")?.value == "Hello")
        #expect(Self.tag(tags, "wtpt (white point)")?.value == "0.9642 1.0 0.8249")
        #expect(Self.tag(tags, "rTRC (red tone curve)")?.value == "gamma 2.19921875")
        #expect(Self.tag(tags, "zzzz")?.value == "????, 8 bytes", "an unprintable type signature is not copied into the page")
        for cut in 0..<profile.count { _ = ICCListing.tags(Array(profile.prefix(cut))) }
        var lying = profile
        lying[128...131] = [0xFF, 0xFF, 0xFF, 0xFF][...]
        #expect(ICCListing.tags(lying).filter { $0.group == "tag" }.count <= (lying.count - 132) / 12, "no more entries than the profile holds")
    }
}
