import H2JJPEG
import H2JMetadata

/// XMP packets holding heic2jpg's provenance mark, and the mark they hold.
package enum ProvenanceMarkPackets {
    package static let digest = String(repeating: "0123456789abcdef", count: 4)
    package static let expected = ProvenanceMark(sourceName: "IMG_0001 & co.HEIC", sourceSHA256: digest, mode: .keep, quality: 90, version: "0.1.0")

    /// A packet shaped like the ones heic2jpg writes: the mark in attribute form on its
    /// own `rdf:Description`, after one holding other properties; `omitting` leaves
    /// properties out (a strip-mode mark has no `sourceName`).
    package static func attributePacket(prefix: String = "h2j", uri: String = XMPNamespace.h2j.uri,
                                        values: [String: String] = [:], omitting: Set<String> = []) -> [UInt8] {
        var fields = ["sourceName": "IMG_0001 &amp; co.HEIC", "sourceSHA256": digest, "mode": "lossless-metadata",
                      "quality": "90", "version": "0.1.0"]
        fields.merge(values) { $1 }
        omitting.forEach { fields.removeValue(forKey: $0) }
        let attributes = ProvenanceMark.propertyNames.compactMap { name in fields[name].map { "\n   \(prefix):\(name)=\"\($0)\"" } }
        return Array("""
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="1"/>
          <rdf:Description rdf:about="" xmlns:\(prefix)="\(uri)"\(attributes.joined())/>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """.utf8)
    }

    /// The header of a JPEG whose XMP carries a mark for `sourceName` (no markup in the
    /// name; nil for a strip-mode mark, which names no file) and `values`, up to its scan:
    /// enough for anything that looks for the mark.
    package static func markedJPEG(sourceName: String?, values: [String: String] = [:]) -> [UInt8] {
        let packet = attributePacket(values: values.merging(sourceName.map { ["sourceName": $0] } ?? [:]) { $1 },
                                     omitting: sourceName == nil ? ["sourceName"] : [])
        return [0xFF, 0xD8] + JPEGTestSupport.segment(0xE1, JPEGAPPSignature.xmp + packet) + [0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
    }
}
