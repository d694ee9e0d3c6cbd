import Foundation
import Testing
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

@Suite("XMP: adding properties")
struct XMPInsertionTests {
    typealias S = XMPTestSupport

    static let rdfURI = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// exiftool's layout: one Description, attribute-free start tag, element properties.
    static let exiftoolStyle = """
        <?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?>
        <x:xmpmeta xmlns:x='adobe:ns:meta/' x:xmptk='Image::ExifTool 12.57'>
        <rdf:RDF xmlns:rdf='\(rdfURI)'>

         <rdf:Description rdf:about=''
          xmlns:tiff='http://ns.adobe.com/tiff/1.0/'>
          <tiff:Make>Apple</tiff:Make>
          <tiff:Orientation>6</tiff:Orientation>
         </rdf:Description>
        </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end='w'?>
        """

    /// Apple's layout: one self-closing Description with attribute properties, no wrapper.
    static let selfClosing = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 6.0.0">
           <rdf:RDF xmlns:rdf="\(rdfURI)">
              <rdf:Description rdf:about=""
                    xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
                    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
                    tiff:Orientation="6"
                    photoshop:DateCreated="2023-04-27T19:44:18"/>
           </rdf:RDF>
        </x:xmpmeta>
        """

    /// Adobe's layout: a Description per namespace, a non-empty `rdf:about`.
    static let severalDescriptions = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="\(rdfURI)">
          <rdf:Description rdf:about="uuid:faf5bdd5-ba3d-11da-ad31-d33d75182f1b" xmlns:dc="http://purl.org/dc/elements/1.1/">
           <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour</rdf:li></rdf:Alt></dc:title>
          </rdf:Description>
          <rdf:Description rdf:about="uuid:faf5bdd5-ba3d-11da-ad31-d33d75182f1b" xmlns:exif="http://ns.adobe.com/exif/1.0/">
           <exif:PixelXDimension>4032</exif:PixelXDimension>
           <exif:ExposureTime>1/250</exif:ExposureTime>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """

    static let userComment = XMPProperty(.exif, "UserComment", .languageAlternative("Sunset over the harbour"))
    static let creator = XMPProperty(.dc, "creator", .orderedArray(["Ann", "Bob"]))

    /// What `make` inserts: the source's bytes stay, the new Description goes before `</rdf:RDF>`.
    func expectInserted(_ source: String, _ output: [UInt8], _ description: String) {
        let cut = source.range(of: "</rdf:RDF>")!.lowerBound
        #expect(String(decoding: output, as: UTF8.self) == String(source[..<cut]) + description + String(source[cut...]))
    }

    @Test("The exact bytes: a Description of its own before </rdf:RDF>, text as attributes, arrays as elements")
    func exactBytes() throws {
        let source = Self.severalDescriptions
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 4032, height: 3024,
                                     adding: S.mark() + [Self.userComment, Self.creator])
        #expect(result.warnings.isEmpty)
        #expect(result.extendedPayloads.isEmpty)
        let about = #"rdf:about="uuid:faf5bdd5-ba3d-11da-ad31-d33d75182f1b""#
        expectInserted(source, S.packet(result.payload), #"""
             <rdf:Description \#(about) xmlns:h2j="http://ns.heic2jpg.dev/provenance/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" h2j:sourceName="IMG_0001.HEIC" h2j:sourceSHA256="\#(String(repeating: "ab", count: 32))" h2j:mode="lossless-metadata" h2j:quality="90" h2j:version="test">
              <exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">Sunset over the harbour</rdf:li></rdf:Alt></exif:UserComment>
              <dc:creator><rdf:Seq><rdf:li>Ann</rdf:li><rdf:li>Bob</rdf:li></rdf:Seq></dc:creator>
             </rdf:Description>

            """#)
        #expect(S.xmlError(S.packet(result.payload)) == nil)
    }

    @Test("exiftool reads the source's and the added properties, whatever the packet's layout",
          arguments: [exiftoolStyle, selfClosing, severalDescriptions])
    func layouts(source: String) throws {
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 3024, height: 4032,
                                     adding: S.mark() + [Self.userComment, Self.creator])
        #expect(result.warnings.isEmpty)
        let packet = S.packet(result.payload)
        #expect(S.xmlError(packet) == nil)
        let tags = try S.exiftool(packet: packet)
        #expect(tags["XMP-h2j:SourceName"] == "IMG_0001.HEIC")
        #expect(tags["XMP-h2j:Mode"] == "lossless-metadata")
        #expect(tags["XMP-h2j:Quality"] == "90")
        #expect(tags["XMP-exif:UserComment"] == "Sunset over the harbour")
        #expect(tags["XMP-dc:Creator"] == "Ann|Bob")
        // The source's own properties are still read, with the edits.
        let before = try S.exiftool(packet: Array(source.utf8))
        for (key, value) in before where !["SourceFile", "XMP-tiff:Orientation", "XMP-exif:ExifImageWidth"].contains(key) {
            #expect(tags[key] == value, "\(key)")
        }
        if before["XMP-tiff:Orientation"] != nil { #expect(tags["XMP-tiff:Orientation"] == "Horizontal (normal)") }
        // The new Description's rdf:about is the first Description's.
        let aboutIn = { (text: String) in text.firstMatch(of: /rdf:about=(["'])(.*?)\1/).map { String($0.2) } }
        let text = String(decoding: packet, as: UTF8.self)
        let last = text.ranges(of: "<rdf:Description").last!.lowerBound
        #expect(aboutIn(String(text[last...])) == aboutIn(source))
    }

    @Test("Properties the packet already has are not added twice; the packet's value stays")
    func alreadyPresent() throws {
        let source = Self.severalDescriptions.replacingOccurrences(
            of: "<exif:ExposureTime>", with: "<exif:UserComment><rdf:Alt><rdf:li xml:lang=\"x-default\">Original</rdf:li></rdf:Alt></exif:UserComment>\n   <exif:ExposureTime>")
            .replacingOccurrences(of: "xmlns:dc=", with: "dc:creator=\"Cy\" xmlns:dc=")
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 4032, height: 3024,
                                     adding: [Self.userComment, Self.creator] + S.mark())
        #expect(result.warnings.map(\.message) == ["XMP already has exif:UserComment, dc:creator: kept the packet's value rather than adding a second"])
        let text = S.text(result.payload)
        #expect(S.count(of: "exif:UserComment>", in: text) == 2)  // its start and end tag
        #expect(!text.contains("Sunset") && !text.contains("<dc:creator>"))
        #expect(S.count(of: "h2j:sourceName=", in: text) == 1)
        #expect(try S.exiftool(packet: S.packet(result.payload))["XMP-exif:UserComment"] == "Original")
    }

    @Test("A property named twice is added once (the first value); a stale xmpNote:HasExtendedXMP goes")
    func namedTwiceAndStaleExtended() {
        let source = Self.selfClosing.replacingOccurrences(of: "tiff:Orientation=\"6\"", with: "tiff:Orientation=\"6\" xmpNote:HasExtendedXMP=\"0123\"")
        let second = XMPProperty(.exif, "UserComment", .languageAlternative("second"))
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 1, height: 1, adding: [Self.userComment, second])
        let text = S.text(result.payload)
        #expect(result.warnings.isEmpty)
        #expect(S.count(of: "<exif:UserComment>", in: text) == 1 && !text.contains("second"))
        #expect(!text.contains("HasExtendedXMP") && text.contains("tiff:Orientation=\"1\"\n"))
        #expect(S.xmlError(S.packet(result.payload)) == nil)
    }

    @Test("A mark replaces the packet's own: converting an output again yields one mark, the same bytes for the same mark")
    func markReplaced() throws {
        for source in [Self.exiftoolStyle, Self.selfClosing, Self.severalDescriptions] {
            let first = XMPForJPEG.make(packet: Array(source.utf8), width: 3024, height: 4032, adding: S.mark("A.HEIC", quality: 80))
            let firstPacket = S.packet(first.payload)
            let again = XMPForJPEG.make(packet: firstPacket, width: 3024, height: 4032, adding: S.mark("A.HEIC", quality: 80))
            #expect(S.packet(again.payload) == firstPacket)
            let other = XMPForJPEG.make(packet: firstPacket, width: 3024, height: 4032, adding: S.mark("B.HEIC", quality: 70))
            let text = S.text(other.payload)
            #expect(S.count(of: "h2j:sourceName=", in: text) == 1 && S.count(of: "xmlns:h2j=", in: text) == 1)
            #expect(text.contains("h2j:sourceName=\"B.HEIC\"") && text.contains("h2j:quality=\"70\"") && !text.contains("A.HEIC"))
            #expect(S.xmlError(S.packet(other.payload)) == nil)
        }
        // Element-form h2j properties of another writer go too; without a mark to add, h2j stays.
        let foreign = Self.severalDescriptions.replacingOccurrences(
            of: "<exif:ExposureTime>", with: "<h2j:sourceName xmlns:h2j=\"http://ns.heic2jpg.dev/provenance/1.0/\">old</h2j:sourceName><exif:ExposureTime>")
        #expect(!S.text(XMPForJPEG.make(packet: Array(foreign.utf8), width: 4032, height: 3024, adding: S.mark()).payload).contains("old"))
        #expect(S.text(XMPForJPEG.make(packet: Array(foreign.utf8), width: 4032, height: 3024).payload).contains(">old<"))
    }

    @Test("Values are escaped; characters XML cannot carry are dropped")
    func escaping() throws {
        let value = "a&b<c>d\"e'f\tg\nh\ri\u{0}j\u{1}k\u{FFFE}l é ✓ 😀"
        let readable = "a&b<c>d\"e'f\tg\nh\ri" + "jkl é ✓ 😀"
        let properties = [XMPProperty(.dc, "source", .text(value)), XMPProperty(.exif, "UserComment", .languageAlternative(value)),
                          XMPProperty(.dc, "creator", .orderedArray([value]))]
        let result = XMPForJPEG.make(packet: Array(Self.exiftoolStyle.utf8), width: 1, height: 1, adding: properties)
        let text = S.text(result.payload)
        #expect(text.contains(#"dc:source="a&amp;b&lt;c&gt;d&quot;e'f&#x9;g&#xA;h&#xD;ijkl é ✓ 😀""#))
        #expect(text.contains(#"<rdf:li xml:lang="x-default">a&amp;b&lt;c&gt;d"e'f"# + "\tg\nh&#xD;ijkl é ✓ 😀</rdf:li>"))
        #expect(S.xmlError(S.packet(result.payload)) == nil)
        let tags = try S.exiftool(packet: S.packet(result.payload))
        #expect(tags["XMP-dc:Source"] == readable)
        #expect(tags["XMP-exif:UserComment"] == readable)
        #expect(tags["XMP-dc:Creator"] == readable)
    }

    @Test("No source packet: a complete packet with only the added properties; nothing to add, no packet")
    func noPacket() throws {
        let result = XMPForJPEG.make(packet: nil, width: 1, height: 1, adding: S.mark())
        #expect(result.warnings.isEmpty)
        let text = S.text(result.payload)
        #expect(text.hasPrefix("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n <rdf:RDF"))
        #expect(text.hasSuffix("</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"))
        #expect(S.count(of: "<rdf:Description rdf:about=\"\"", in: text) == 1)
        #expect(S.xmlError(S.packet(result.payload)) == nil)
        let tags = try S.exiftool(packet: S.packet(result.payload))
        #expect(tags["XMP-h2j:SourceSHA256"] == String(repeating: "ab", count: 32))
        #expect(tags["XMP-h2j:Version"] == "test")
        #expect(XMPForJPEG.make(packet: nil, width: 1, height: 1) == JPEGXMP(payload: nil, warnings: []))
        #expect(XMPForJPEG.make(packet: [0, 0], width: 1, height: 1, adding: S.mark()).payload == result.payload)
    }

    /// A Latin-1 packet (é as the single byte E9), like the corpus's xmp-latin1.heic.
    static let latin1: [UInt8] = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\#(rdfURI)"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Aim"#.utf8)
        + [0xE9] + Array("</dc:title></rdf:Description></rdf:RDF></x:xmpmeta>".utf8)

    @Test("A packet that is not UTF-8 stays byte for byte; inserted non-ASCII becomes character references")
    func notUTF8() throws {
        let result = XMPForJPEG.make(packet: Self.latin1, width: 1, height: 1,
                                     adding: [XMPProperty(.h2j, "sourceName", .text("Aimé ✓.heic")), XMPProperty(.exif, "UserComment", .languageAlternative("é"))])
        #expect(result.warnings.isEmpty)
        let packet = S.packet(result.payload)
        let cut = Self.latin1.count - "</rdf:RDF></x:xmpmeta>".utf8.count
        #expect([UInt8](packet.prefix(cut)) == [UInt8](Self.latin1.prefix(cut)))
        #expect([UInt8](packet.suffix(22)) == [UInt8](Self.latin1.suffix(22)))
        let inserted = packet[cut..<(packet.count - 22)]
        #expect(inserted.allSatisfy { $0 < 0x80 })
        let text = String(decoding: inserted, as: UTF8.self)
        #expect(text.contains(#"h2j:sourceName="Aim&#xE9; &#x2713;.heic""#))
        #expect(text.contains(#"<rdf:li xml:lang="x-default">&#xE9;</rdf:li>"#))
    }

    @Test("The corpus's Latin-1 XMP keeps its bytes and gets the mark", .enabled(if: XMPTestSupport.corpus != nil, "../shared/corpus is not present"))
    func corpusLatin1() throws {
        var source = try #require(try S.sourceXMP(S.corpus! + "/synthetic/xmp-latin1.heic"))
        while source.last == 0 { source.removeLast() }  // its NUL terminator is not written
        #expect(XMPTextEncoding(of: source) == .asciiCompatible)
        let result = XMPForJPEG.make(packet: source, width: 1, height: 1, adding: S.mark("Aimé.heic"))
        #expect(result.warnings.isEmpty)
        let packet = S.packet(result.payload)
        let structure = try #require(XMPPacketStructure(source))
        #expect([UInt8](packet.prefix(structure.rdfEnd)) == [UInt8](source.prefix(structure.rdfEnd)))
        #expect([UInt8](packet.suffix(source.count - structure.rdfEnd)) == [UInt8](source.suffix(from: structure.rdfEnd)))
        #expect(String(decoding: packet, as: UTF8.self).contains(#"h2j:sourceName="Aim&#xE9;.heic""#))
        // Its x:xmpmeta namespace is "adobe.ns.meta/", so exiftool names every tag after it.
        let tags = try S.exiftool(packet: packet)
        #expect(tags["XMP-tmp0:XmpmetaSourceName"] == "Aimé.heic")
    }

    @Test("UTF-16 and UTF-32 packets pass through byte for byte, with a warning naming what was not added")
    func wideEncodings() {
        let text = #"<?xpacket begin="\#u{FEFF}"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\#(Self.rdfURI)"><rdf:Description rdf:about="" tiff:Orientation="6"/></rdf:RDF></x:xmpmeta>"#
        let units = Array(text.utf16), scalars = text.unicodeScalars.map(\.value)
        let utf16LE: [UInt8] = units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] } + [0, 0]
        let utf16BE: [UInt8] = [0xFE, 0xFF] + units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let utf32BE: [UInt8] = [0, 0, 0xFE, 0xFF] + scalars.flatMap { (value: UInt32) -> [UInt8] in
            [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        for packet in [utf16LE, utf16BE, utf32BE] {
            #expect(XMPTextEncoding(of: packet) == .wide)
            let result = XMPForJPEG.make(packet: packet, width: 1, height: 1, adding: S.mark())
            #expect(result.payload == JPEGAPPSignature.xmp + packet)
            #expect(result.warnings.map(\.message) == ["XMP is UTF-16 or UTF-32, which nothing can be inserted into: did not add h2j:sourceName, h2j:sourceSHA256, h2j:mode, h2j:quality, h2j:version"])
            #expect(XMPForJPEG.make(packet: packet, width: 1, height: 1).warnings.isEmpty)
        }
    }

    @Test("A packet with no well-formed rdf:RDF is passed through, with a warning")
    func malformed() {
        for source in ["<x:xmpmeta><rdf:Description tiff:Orientation=\"6\"/></x:xmpmeta>",
                       "<x:xmpmeta><rdf:RDF><rdf:Description tiff:Orientation=\"6\"></rdf:RDF></x:xmpmeta>",
                       "<x:xmpmeta><rdf:RDF><!-- unterminated </rdf:RDF></x:xmpmeta>"] {
            let result = XMPForJPEG.make(packet: Array(source.utf8), width: 1, height: 1, adding: [Self.userComment])
            #expect(S.text(result.payload) == source.replacingOccurrences(of: "\"6\"", with: "\"1\""))
            #expect(result.warnings.map(\.message) == ["XMP has no well-formed rdf:RDF element to add to: did not add exif:UserComment"])
        }
    }

    @Test("Added properties declare their own namespaces: a prefix the packet binds elsewhere does not clash")
    func prefixClash() throws {
        let source = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\(Self.rdfURI)" xmlns:exif="http://example.com/not-exif/">
            <rdf:Description rdf:about="" exif:Lens="L1"/>
            </rdf:RDF></x:xmpmeta>
            """
        let result = XMPForJPEG.make(packet: Array(source.utf8), width: 1, height: 1, adding: [Self.userComment])
        #expect(S.xmlError(S.packet(result.payload)) == nil)
        let tags = try S.exiftool(packet: S.packet(result.payload))
        #expect(tags["XMP-exif:UserComment"] == "Sunset over the harbour")
        #expect(tags["XMP-exif:Lens"] == nil && tags.values.contains("L1"))
        // A packet that declares rdf only on its Descriptions: the new one declares it too.
        let local = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="\#(Self.rdfURI)"></rdf:RDF></x:xmpmeta>"#
            .replacingOccurrences(of: #" xmlns:rdf="\#(Self.rdfURI)""#, with: "")
        #expect(XMPPacketStructure(Array(local.utf8))?.ancestorsBind("rdf", to: Self.rdfURI) == false)
        #expect(S.text(XMPForJPEG.make(packet: Array(local.utf8), width: 1, height: 1, adding: [Self.userComment]).payload)
            .contains(#"<rdf:Description rdf:about="" xmlns:rdf="\#(Self.rdfURI)" xmlns:exif="#))
    }

    @Test("Every corpus XMP takes the mark: well-formed when it was, exiftool reads the mark and every source tag",
          .enabled(if: XMPTestSupport.corpus != nil, "../shared/corpus is not present"))
    func corpusPackets() throws {
        let corpus = try #require(S.corpus)
        let files = (FileManager.default.enumerator(atPath: corpus)?.allObjects as? [String] ?? [])
            .filter { !$0.hasPrefix("bad/") && ($0.hasSuffix(".heic") || $0.hasSuffix(".hif") || $0.hasSuffix(".heif")) }.sorted()
        var checked = 0
        for file in files {
            guard let source = try? S.sourceXMP(corpus + "/" + file) else { continue }
            checked += 1
            #expect(XMPPacketStructure(source) != nil, "\(file)")
            let result = XMPForJPEG.make(packet: source, width: 7, height: 5, adding: S.mark(file))
            #expect(result.warnings.isEmpty, "\(file)")
            let packet = S.packet(result.payload)
            if S.xmlError(source) == nil { #expect(S.xmlError(packet) == nil, "\(file)") }
            let before = try S.exiftool(packet: source), after = try S.exiftool(packet: packet)
            #expect(after.first { $0.key.hasSuffix("SourceName") }?.value == file, "\(file)")
            for (key, value) in before where !["SourceFile", "XMP-tiff:Orientation", "XMP-exif:ExifImageWidth", "XMP-exif:ExifImageHeight"].contains(key) {
                #expect(after[key] == value, "\(file): \(key)")
            }
        }
        #expect(checked >= 5)
    }
}

extension XMPInsertionTests {
    @Test("A resource sequence (Ultra HDR's Container:Directory): well-formed, every namespace it uses declared, read back item by item; it never moves to Extended XMP")
    func resourceSequence() throws {
        let item = XMPProperty.Name(.container, "Item")
        let directory = XMPProperty(.container, "Directory", .resourceSequence(item: item, [
            [XMPProperty(.containerItem, "Semantic", .text("Primary")), XMPProperty(.containerItem, "Mime", .text("image/jpeg"))],
            [XMPProperty(.containerItem, "Semantic", .text("GainMap")), XMPProperty(.containerItem, "Length", .text("1234"))],
        ]))
        let result = XMPForJPEG.make(packet: nil, width: 1, height: 1, adding: [XMPProperty(.hdrgm, "Version", .text("1.0")), directory])
        #expect(S.xmlError(S.packet(result.payload)) == nil)
        let text = S.text(result.payload)
        for uri in [XMPNamespace.container.uri, XMPNamespace.containerItem.uri, XMPNamespace.hdrgm.uri] {
            #expect(text.contains("=\"\(uri)\""), "\(uri) declared")
        }
        #expect(text.contains("<rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Semantic=\"GainMap\" Item:Length=\"1234\"/></rdf:li>"), "\(text)")
        let tags = try S.exiftool(packet: S.packet(result.payload))
        #expect(tags["XMP-hdrgm:Version"] == "1.0", "\(tags)")
        #expect(tags["XMP-Container:DirectoryItemLength"] == "1234", "\(tags)")
        #expect(XMPNamespace.neverExtended.contains(.container) && XMPNamespace.neverExtended.contains(.hdrgm))
    }
}
