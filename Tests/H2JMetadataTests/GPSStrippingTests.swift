import H2JTestSupport
import Testing
@testable import H2JMetadata

@Suite("--strip-gps: EXIF GPS IFD and XMP GPS properties removed")
struct GPSStrippingTests {
    /// The bytes of one stored rational, in the blob's byte order.
    func rationalBytes(_ n: UInt32, _ d: UInt32, bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [n, d] {
            let bigEndianBytes: [UInt8] = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
            bytes += bigEndian ? bigEndianBytes : bigEndianBytes.reversed()
        }
        return bytes
    }

    func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.count >= needle.count && (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("The GPS IFD leaves IFD0, its values are zeroed, everything else (maker note, thumbnail) stays", arguments: [false, true])
    func exif(bigEndian: Bool) throws {
        let input = EXIFTestTIFF.typical(bigEndian: bigEndian).build().bytes
        let item = EXIFTestSupport.heifItem(tiff: input)
        let kept = EXIFForJPEG.make(fromHEIFExifItem: item, width: 3024, height: 4032)
        let stripped = EXIFForJPEG.make(fromHEIFExifItem: item, width: 3024, height: 4032, stripGPS: true)
        #expect(stripped.warnings.isEmpty)
        let payload = try #require(stripped.app1Payload)
        let dir = try EXIFDirectory(app1Payload: payload)
        #expect(dir.ifd(.gps) == nil)
        #expect(dir.entry(.ifd0, EXIFTag.gpsIFDPointer) == nil)
        #expect(dir.ifd(.ifd0)?.entries.count == (try EXIFDirectory(tiff: input)).ifd(.ifd0)!.entries.count - 1)
        #expect(dir.string(.ifd0, EXIFTag.make) == "Apple")
        #expect(dir.string(.exif, EXIFTag.dateTimeOriginal) == "2023:04:27 19:44:18")
        #expect(dir.unsignedInteger(.ifd0, EXIFTag.orientation) == 1)
        #expect(dir.rawValue(.exif, EXIFTag.makerNote) == Array("Apple iOS\u{0}MAKERNOTE-DATA-0123456789".utf8))
        #expect(dir.ifd(.ifd1) != nil && dir.ifd(.interop) != nil)
        // The coordinates are gone from the bytes, not just unlinked.
        let latitudeSeconds = rationalBytes(38_240_039, 1_000_000, bigEndian: bigEndian)
        #expect(contains(try #require(kept.app1Payload), latitudeSeconds))
        #expect(!contains(payload, latitudeSeconds))
        // Nothing but IFD0's tail and the GPS bytes changed: same size, same maker-note offset.
        #expect(payload.count == kept.app1Payload?.count)
        let before = try EXIFDirectory(app1Payload: try #require(kept.app1Payload))
        #expect(before.entry(.exif, EXIFTag.makerNote)?.valueOffset == dir.entry(.exif, EXIFTag.makerNote)?.valueOffset)
    }

    @Test("Unclosed elements and attributes are left as they are, however many")
    func unclosed() {
        let packet = Array(String(repeating: "<exif:GPSAltitude>7 ", count: 20_000).utf8) + Array(" exif:GPSLatitude=\"1".utf8)
        #expect(XMPForJPEG.removingProperties(prefixed: "exif:GPS", from: packet) == packet)
        #expect(XMPForJPEG.replacingValue(of: "exif:GPSAltitude", with: "0", in: packet) == packet)
    }

    @Test("No GPS: nothing changes")
    func noGPS() throws {
        var t = EXIFTestTIFF.typical()
        t.gps = nil
        let item = EXIFTestSupport.heifItem(tiff: t.build().bytes)
        #expect(EXIFForJPEG.make(fromHEIFExifItem: item, width: 4, height: 3, stripGPS: true)
                == EXIFForJPEG.make(fromHEIFExifItem: item, width: 4, height: 3))
    }

    @Test("XMP: exif:GPS… attributes and elements go; other properties stay")
    func xmp() {
        let packet = Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="22,57.1150S" exif:ExposureTime="1/250"
         exif:GPSLongitude='43,12.6292W' dc:x="1">
        <exif:GPSAltitude>700/1</exif:GPSAltitude>
        <exif:GPSVersionID><rdf:Seq><rdf:li>2</rdf:li></rdf:Seq></exif:GPSVersionID>
        <exif:GPSTimeStamp/>
        <exif:GPSSpeed rdf:parseType="Literal">0/1</exif:GPSSpeed >
        <dc:title><rdf:Alt><rdf:li xml:lang="x-default">t</rdf:li></rdf:Alt></dc:title>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """.utf8)
        let out = String(decoding: XMPForJPEG.removingProperties(prefixed: "exif:GPS", from: packet), as: UTF8.self)
        #expect(!out.contains("GPS"), "\(out)")
        #expect(!out.contains("22,57") && !out.contains("700/1"))
        #expect(out.contains("exif:ExposureTime=\"1/250\"") && out.contains(" dc:x=\"1\">") && out.contains("<dc:title>"))
        #expect(out.contains("xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:ExposureTime"))
        // Through make, and a no-op without GPS.
        let made = XMPForJPEG.make(packet: packet, width: 4, height: 3, stripGPS: true)
        #expect(made.payload.map { !String(decoding: $0, as: UTF8.self).contains("GPS") } == true)
        let plain = Array("<x:xmpmeta><rdf:Description exif:ExposureTime=\"1/250\"/></x:xmpmeta>".utf8)
        #expect(XMPForJPEG.removingProperties(prefixed: "exif:GPS", from: plain) == plain)
    }
}
