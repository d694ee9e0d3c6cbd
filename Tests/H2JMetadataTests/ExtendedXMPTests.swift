import Foundation
import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

@Suite("Extended XMP")
struct ExtendedXMPTests {
    typealias S = XMPTestSupport

    static let rdfURI = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// About 70 KB of text with characters that need escaping and non-ASCII ones.
    static let longComment: String = (0..<1_700).map { "Line \($0): fish & chips <cheap>, café ✓. " }.joined()

    /// Three Descriptions with properties of distinct sizes, namespaces declared on
    /// x:xmpmeta, rdf:RDF and the Descriptions.
    static func source(history: Int = 2_000, description: Int = 3_000) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
         <rdf:RDF xmlns:rdf="\(rdfURI)" xmlns:tiff="http://ns.adobe.com/tiff/1.0/">
          <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" tiff:Orientation="6">
           <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour</rdf:li></rdf:Alt></dc:title>
           <dc:description><rdf:Alt><rdf:li xml:lang="x-default">\(String(repeating: "d", count: description))</rdf:li></rdf:Alt></dc:description>
           <xmp:Rating>4</xmp:Rating>
          </rdf:Description>
          <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/">
           <photoshop:History>\(String(repeating: "h", count: history))</photoshop:History>
           <photoshop:City>Porto</photoshop:City>
          </rdf:Description>
          <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:ExposureTime="1/250"/>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    /// Checks what every Extended XMP result must be, and returns the extended packet.
    @discardableResult
    func checkExtended(_ result: JPEGXMP, limit: Int = XMPForJPEG.maxPacketBytes, standardIsUTF8: Bool = true,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let standard = try #require(result.payload, sourceLocation: sourceLocation)
        #expect(standard.count <= limit + JPEGAPPSignature.xmp.count, sourceLocation: sourceLocation)
        let (guid, extended) = try #require(S.reassemble(result.extendedPayloads), sourceLocation: sourceLocation)
        #expect(guid == MD5.hexDigest(extended, uppercase: true), sourceLocation: sourceLocation)
        #expect(guid.count == 32 && guid.allSatisfy { $0.isHexDigit && !$0.isLowercase }, sourceLocation: sourceLocation)
        let text = S.text(standard)
        #expect(S.count(of: "xmpNote:HasExtendedXMP=\"\(guid)\"", in: text) == 1, sourceLocation: sourceLocation)
        #expect(S.count(of: "HasExtendedXMP", in: text) == 1, sourceLocation: sourceLocation)
        if standardIsUTF8 { #expect(S.xmlError(S.packet(standard)) == nil, sourceLocation: sourceLocation) }
        #expect(S.xmlError(extended) == nil, sourceLocation: sourceLocation)
        #expect(String(decoding: extended, as: UTF8.self).hasPrefix("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"), sourceLocation: sourceLocation)
        return extended
    }

    @Test("A 70 KB UserComment moves to Extended XMP: GUID, chunk headers, offsets and lengths; the mark stays")
    func userComment() throws {
        let source = Self.source()
        let comment = XMPProperty(.exif, "UserComment", .languageAlternative(Self.longComment))
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 3024, height: 4032, adding: S.mark() + [comment])
        let extended = try checkExtended(result)
        #expect(result.extendedPayloads.count == 2)
        #expect(result.extendedPayloads[0].count == 65_533)
        let packetSizes: [Int] = result.extendedPayloads.map { S.packet($0).count }
        let afterSignature: [Int] = result.extendedPayloads.map { $0.count - JPEGAPPSignature.xmp.count }
        #expect(packetSizes == afterSignature)
        // The GUID agrees with md5sum, an independent MD5.
        let directory = TemporaryDirectory()
        let md5sum = String(decoding: try HEVCReference.run("md5sum", [directory.file("extended.xmp", extended)]), as: UTF8.self)
        #expect(S.reassemble(result.extendedPayloads)?.guid == md5sum.prefix(32).uppercased())

        let standard = S.text(result.payload)
        #expect(!standard.contains("UserComment") && standard.contains("h2j:sourceName=\"IMG_0001.HEIC\""))
        #expect(standard.contains(#"tiff:Orientation="1""#))
        // The source's bytes are all there (Orientation edited, the line break that pads
        // the packet removed), the new Description before </rdf:RDF>.
        let edited = source.replacingOccurrences(of: #"tiff:Orientation="6""#, with: #"tiff:Orientation="1""#)
            .replacingOccurrences(of: "\n<?xpacket end", with: "<?xpacket end")
        let cut = edited.range(of: "</rdf:RDF>")!.lowerBound
        #expect(standard.hasPrefix(String(edited[..<cut])) && standard.hasSuffix(String(edited[cut...])))
        let tags = try S.exiftool(packet: extended)
        #expect(tags["XMP-exif:UserComment"] == Self.longComment)
        let warning = try #require(result.warnings.first).message
        #expect(result.warnings.count == 1)
        #expect(warning.hasPrefix("XMP is ") && warning.contains(" bytes, over the 65,502 one APP1 holds: moved exif:UserComment ("))
        #expect(warning.hasSuffix(" bytes) to Extended XMP (\(EXIFText.bytes(extended.count)) bytes in 2 APP1 segments); removed 1 byte of padding"))
    }

    @Test("Padding goes before anything moves, and silently")
    func padding() throws {
        let plain = Self.source()
        let padded = plain.replacingOccurrences(of: "\n<?xpacket end", with: String(repeating: String(repeating: " ", count: 99) + "\n", count: 660) + "<?xpacket end")
        #expect(padded.utf8.count > XMPForJPEG.maxPacketBytes)
        let result = XMPForJPEG.make(packet: Array(padded.utf8), width: 1, height: 1, adding: S.mark())
        #expect(result.warnings.isEmpty && result.extendedPayloads.isEmpty)
        let unpadded = XMPForJPEG.make(packet: Array(plain.utf8), width: 1, height: 1, adding: S.mark())
        #expect(S.text(result.payload) == S.text(unpadded.payload).replacingOccurrences(of: "\n<?xpacket end", with: "<?xpacket end"))
        // Padding that is not needed stays.
        let small = plain.replacingOccurrences(of: "\n<?xpacket end", with: String(repeating: " ", count: 2_000) + "\n<?xpacket end")
        #expect(S.text(XMPForJPEG.make(packet: Array(small.utf8), width: 1, height: 1).payload).contains(String(repeating: " ", count: 2_000)))
    }

    @Test("Source properties move largest first, with the namespaces in scope; h2j stays; readers see every property")
    func sourceProperties() throws {
        let source = Self.source(history: 2_000, description: 3_000)
        // Room for everything but the two largest properties.
        let limit = source.utf8.count + 600 - 4_500
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 1, height: 1, adding: S.mark(), packetLimit: limit)
        let extended = try checkExtended(result, limit: limit)
        let standard = S.text(result.payload)
        #expect(!standard.contains("<dc:description>") && !standard.contains("<photoshop:History>"))
        #expect(standard.contains("<dc:title>") && standard.contains("<photoshop:City>") && standard.contains("h2j:sourceName"))
        let text = String(decoding: extended, as: UTF8.self)
        #expect(text.contains(#"xmlns:dc="http://purl.org/dc/elements/1.1/""#) && text.contains(#"xmlns:photoshop="#)
                && text.contains(#"xmlns:tiff="#) && text.contains(#"xmlns:xmp="#))
        #expect(S.count(of: "xmlns:rdf=", in: text) == 1 && S.count(of: "xmlns:x=", in: text) == 1)
        #expect(result.warnings.map(\.message) == ["XMP is \(EXIFText.bytes(S.packet(XMPForJPEG.make(packet: Array(source.utf8), width: 1, height: 1, adding: S.mark()).payload).count)) bytes, over the \(EXIFText.bytes(limit)) one APP1 holds: moved dc:description (3,090 bytes), photoshop:History (2,039 bytes) to Extended XMP (\(EXIFText.bytes(extended.count)) bytes in 1 APP1 segment); removed 1 byte of padding"])
        // What exiftool reads from both packets together is what it reads from the source.
        var together = try S.exiftool(packet: S.packet(result.payload))
        together.merge(try S.exiftool(packet: extended)) { first, _ in first }
        let original = try S.exiftool(packet: Array(source.utf8))
        for (key, value) in original where !["SourceFile", "XMP-tiff:Orientation"].contains(key) {
            #expect(together[key] == value, "\(key)")
        }
    }

    @Test("A Description that rebinds a prefix in scope keeps its properties; others move with their namespaces")
    func rebinding() throws {
        let source = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\(Self.rdfURI)" xmlns:a="urn:one">
            <rdf:Description rdf:about=""><a:big>\(String(repeating: "1", count: 900))</a:big></rdf:Description>
            <rdf:Description rdf:about="" xmlns:a="urn:two"><a:big2>\(String(repeating: "2", count: 1_000))</a:big2></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """
        // a:big2, the larger, would need `a` bound to urn:two where urn:one is already in
        // scope: it stays, and a:big (915 bytes) moves instead.
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 1, height: 1, adding: [], packetLimit: 1_500)
        let extended = String(decoding: try checkExtended(result, limit: 1_500), as: UTF8.self)
        #expect(extended.contains(#"xmlns:a="urn:one""#) && extended.contains("<a:big>") && !extended.contains("urn:two"))
        #expect(S.text(result.payload).contains("<a:big2>") && !S.text(result.payload).contains("<a:big>"))
        #expect(result.warnings.first?.message.contains("moved a:big (915 bytes) to Extended XMP") == true)
        // With less room, what can move is not enough.
        let less = XMPForJPEG.make(packet: Array(source.utf8), width: 1, height: 1, adding: [], packetLimit: 1_300)
        #expect(less == JPEGXMP(payload: nil, warnings: [Warning(.xmpDropped, "XMP is 2,190 bytes, over the 1,300 one APP1 holds (still 1,412 bytes with what can move in Extended XMP); dropped it")]))
    }

    @Test("When nothing movable makes it fit, there is no XMP and a warning")
    func impossible() {
        let source = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\#(Self.rdfURI)"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" dc:source="\#(String(repeating: "s", count: 70_000))"/></rdf:RDF></x:xmpmeta>"#
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 1, height: 1, adding: S.mark())
        #expect(result.payload == nil && result.extendedPayloads.isEmpty)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.message.hasSuffix("with what can move in Extended XMP); dropped it") == true)
        // h2j never moves, however large.
        let hugeMark = [XMPProperty(.h2j, "sourceName", .text(String(repeating: "n", count: 70_000)))]
        #expect(XMPForJPEG.make(packet: nil, width: 1, height: 1, adding: hugeMark).payload == nil)
    }

    @Test("A packet that is not UTF-8 keeps its own properties; added ones can still move")
    func notUTF8() throws {
        let source: [UInt8] = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\#(Self.rdfURI)"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>"#.utf8)
            + [UInt8](repeating: 0xE9, count: 1_000) + Array("</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>".utf8)
        let comment = XMPProperty(.exif, "UserComment", .languageAlternative(String(repeating: "é", count: 1_000)))
        let result = XMPForJPEG.make(packet: source, width: 1, height: 1, adding: S.mark() + [comment], packetLimit: 1_800)
        let extended = try checkExtended(result, limit: 1_800, standardIsUTF8: false)
        let standard = S.packet(result.payload)
        #expect(standard.starts(with: source.prefix(source.count - 22)))
        #expect(standard.filter { $0 == 0xE9 }.count == 1_000)
        #expect(String(decoding: extended, as: UTF8.self).contains(String(repeating: "é", count: 1_000)))
        // Its own title would have to move too: it cannot, so the XMP is dropped.
        #expect(XMPForJPEG.make(packet: source, width: 1, height: 1, adding: S.mark(), packetLimit: 1_000).payload == nil)
    }
}
