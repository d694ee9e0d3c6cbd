import Foundation
import H2JTestSupport
import Testing
@testable import H2JMetadata

@Suite("Provenance mark read from XMP")
struct ProvenanceMarkReadingTests {
    typealias Packets = ProvenanceMarkPackets

    /// The same properties in element form, as some editors rewrite them.
    static func elementPacket(prefix: String = "h2j") -> [UInt8] {
        Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about='' xmlns:\(prefix)='\(XMPNamespace.h2j.uri)'>
          <\(prefix):sourceName>IMG_0001 &#38; co.HEIC</\(prefix):sourceName>
          <\(prefix):sourceSHA256>\(Packets.digest.uppercased())</\(prefix):sourceSHA256>
          <\(prefix):mode>lossless-metadata</\(prefix):mode>
          <\(prefix):quality>90</\(prefix):quality>
          <\(prefix):version>0.1.0</\(prefix):version>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """.utf8)
    }

    @Test("Attribute form, as heic2jpg writes it, entities decoded")
    func attributeForm() {
        #expect(ProvenanceMark(xmp: Packets.attributePacket()) == Packets.expected)
    }

    @Test("Element form, numeric character references, upper-case digest read as lower case")
    func elementForm() {
        #expect(ProvenanceMark(xmp: Self.elementPacket()) == Packets.expected)
    }

    @Test("The namespace is found by its URI, whatever the prefix")
    func otherPrefix() {
        #expect(ProvenanceMark(xmp: Packets.attributePacket(prefix: "prov")) == Packets.expected)
        #expect(ProvenanceMark(xmp: Self.elementPacket(prefix: "hj")) == Packets.expected)
        // `h2j` bound to another namespace is someone else's property.
        #expect(ProvenanceMark(xmp: Packets.attributePacket(uri: "http://example.com/other/")) == nil)
    }

    @Test("Lossy mode and the other values are read as written")
    func lossy() {
        let mark = ProvenanceMark(xmp: Packets.attributePacket(values: ["mode": "lossy", "quality": "1", "version": "2.0.0-beta"]))
        #expect(mark?.mode == .strip)
        #expect(mark?.quality == 1)
        #expect(mark?.version == "2.0.0-beta")
    }

    @Test("No mark: nil", arguments: [
        "", "<x:xmpmeta/>",
        "<rdf:Description xmlns:tiff='http://ns.adobe.com/tiff/1.0/' tiff:Orientation='1'/>",
    ])
    func absent(_ packet: String) {
        #expect(ProvenanceMark(xmp: Array(packet.utf8)) == nil)
    }

    @Test("Malformed or incomplete marks are nil", arguments: [
        ["sourceSHA256": "abc"],
        ["sourceSHA256": String(repeating: "g", count: 64)],
        ["sourceSHA256": String(repeating: "a", count: 65)],
        ["mode": "keep"],
        ["quality": "0"], ["quality": "101"], ["quality": "ninety"], ["quality": ""],
        ["version": ""],
    ])
    func malformed(_ values: [String: String]) {
        #expect(ProvenanceMark(xmp: Packets.attributePacket(values: values)) == nil)
    }

    @Test("A missing property (but the source name, which strip mode leaves out) or a structured value makes the mark nil")
    func incomplete() throws {
        for name in ProvenanceMark.propertyNames {
            let packet = String(decoding: Self.elementPacket(), as: UTF8.self)
            let without = packet.split(separator: "\n").filter { !$0.contains("h2j:\(name)>") }.joined(separator: "\n")
            if name == "sourceName" {
                let mark = try #require(ProvenanceMark(xmp: Array(without.utf8)))
                #expect(mark.sourceName == nil && mark.sourceSHA256 == Packets.digest)
            } else {
                #expect(ProvenanceMark(xmp: Array(without.utf8)) == nil, "without \(name)")
            }
        }
        let structured = String(decoding: Self.elementPacket(), as: UTF8.self)
            .replacingOccurrences(of: "<h2j:version>0.1.0</h2j:version>",
                                  with: "<h2j:version><rdf:Alt><rdf:li>0.1.0</rdf:li></rdf:Alt></h2j:version>")
        #expect(ProvenanceMark(xmp: Array(structured.utf8)) == nil)
    }

    @Test("Every prefix and many mutations of a packet are read without trapping")
    func robustness() {
        var generator = SeededGenerator("ProvenanceMarkReadingTests/robustness")
        for packet in [Packets.attributePacket(), Self.elementPacket()] {
            for length in 0...packet.count {
                let mark = ProvenanceMark(xmp: Array(packet.prefix(length)))
                #expect(mark == nil || length >= packet.count - 80)
            }
            for _ in 0..<TestScale.iterations(1000) {
                var mutated = packet
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                _ = ProvenanceMark(xmp: mutated)
            }
        }
    }

    @Test("XML references: predefined entities and numeric references decoded; others kept")
    func xmlText() {
        let cases: [(String, String)] = [
            ("a &amp; b", "a & b"), ("&lt;&gt;&quot;&apos;", "<>\"'"), ("&#233;t&#xE9;", "été"),
            ("&unknown; & &#xD800; &#; &", "&unknown; & &#xD800; &#; &"), ("&amp", "&amp"), ("plain", "plain"),
        ]
        for (input, output) in cases {
            #expect(XMLText.decoding(Array(input.utf8)[...]) == output)
        }
    }
}
