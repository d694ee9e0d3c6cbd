import Testing
@testable import H2JJPEG
@testable import H2JMetadata

@Suite("XMP for JPEG")
struct XMPForJPEGTests {
    func text(_ payload: [UInt8]?) -> String {
        String(decoding: (payload ?? []).dropFirst(JPEGAPPSignature.xmp.count), as: UTF8.self)
    }

    @Test("Attribute and element forms of Orientation and pixel size are updated")
    func updates() {
        let packet = #"<rdf:Description tiff:Orientation="6" exif:PixelXDimension='4032' exif:PixelYDimension = "3024"/><tiff:Orientation>8</tiff:Orientation><x:tiff:OrientationX>3</x:tiff:OrientationX>"#
        let result = XMPForJPEG.make(packet: Array(packet.utf8), width: 3024, height: 4032)
        #expect(text(result.payload) == #"<rdf:Description tiff:Orientation="1" exif:PixelXDimension='3024' exif:PixelYDimension = "4032"/><tiff:Orientation>1</tiff:Orientation><x:tiff:OrientationX>3</x:tiff:OrientationX>"#)
        #expect(result.payload?.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)) == true)
    }

    @Test("No output claims a gain map: hdrgm properties, the Container directory and the Descriptions left empty go, under any prefix")
    func gainMapClaims() {
        // As Samsung writes it: hdrgm:Version on one Description, the Container directory on another.
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">            <rdf:Description rdf:about="" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0"/>            <rdf:Description rdf:about="" xmlns:Container="http://ns.google.com/photos/1.0/container/"             xmlns:Item="http://ns.google.com/photos/1.0/container/item/" xmlns:dc="http://purl.org/dc/elements/1.1/" dc:format="image/heic">            <Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="GainMap" Item:Mime="image/heic" Item:Length="0"/>            </rdf:li></rdf:Seq></Container:Directory></rdf:Description>            <rdf:Description rdf:about="" xmlns:gm="http://ns.adobe.com/hdr-gain-map/1.0/" gm:BaseRenditionIsHDR="False" tiff:Orientation="6"/>            </rdf:RDF></x:xmpmeta>
            """
        let result = text(XMPForJPEG.make(packet: Array(packet.utf8), width: 4, height: 3).payload)
        #expect(!result.contains("hdrgm:") && !result.contains("Container:Directory") && !result.contains("gm:BaseRendition"), "\(result)")
        #expect(!result.contains("hdr-gain-map/1.0/\" hdrgm"), "the emptied Description should go: \(result)")
        #expect(result.contains(#"dc:format="image/heic""#) && result.contains(#"tiff:Orientation="1""#), "\(result)")
        #expect(XMPPacketStructure(Array(result.utf8)) != nil, "still well-formed: \(result)")
    }

    @Test("Closing tags are left alone")
    func closingTag() {
        let packet = "<tiff:Orientation>6</tiff:Orientation>\n <dc:x>keep</dc:x>"
        #expect(text(XMPForJPEG.make(packet: Array(packet.utf8), width: 1, height: 1).payload)
                == "<tiff:Orientation>1</tiff:Orientation>\n <dc:x>keep</dc:x>")
    }

    @Test("Non-UTF-8 bytes pass through untouched")
    func latin1() {
        let packet: [UInt8] = Array("<x a=\"".utf8) + [0xE9, 0xFF] + Array("\" tiff:Orientation=\"3\"/>".utf8)
        let payload = XMPForJPEG.make(packet: packet, width: 1, height: 1).payload ?? []
        #expect(Array(payload.dropFirst(JPEGAPPSignature.xmp.count)) == Array("<x a=\"".utf8) + [0xE9, 0xFF] + Array("\" tiff:Orientation=\"1\"/>".utf8))
    }

    @Test("Oversized packets are dropped with a warning; trailing NULs are trimmed")
    func limits() {
        let big = XMPForJPEG.make(packet: [UInt8](repeating: 0x20, count: 70_000), width: 1, height: 1)
        #expect(big.payload == nil)
        #expect(big.warnings.map(\.message) == ["XMP is 70,000 bytes, over the 65,502 one APP1 holds; dropped it"])
        #expect(XMPForJPEG.make(packet: Array("<x/>".utf8) + [0, 0], width: 1, height: 1).payload?.last == UInt8(ascii: ">"))
        #expect(XMPForJPEG.make(packet: [0], width: 1, height: 1).payload == nil)
    }
}
