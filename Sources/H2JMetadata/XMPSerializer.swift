/// Writes the RDF/XML heic2jpg adds to XMP: `rdf:Description`s of `XMPProperty`s, the
/// packet a JPEG gets when its source has none, and the `<x:xmpmeta>` of an Extended XMP
/// packet.
///
/// Text values go in attribute form (`h2j:mode="lossy"`); language alternatives and
/// ordered arrays as elements (`<dc:description><rdf:Alt><rdf:li xml:lang="x-default">…`).
///
/// Escaping (`escaped`): `&`, `<`, `>` always, `"` in attributes; CR always and TAB/LF in
/// attributes as character references, so XML parsers' line-end and attribute
/// normalization give back the original text. Characters XML 1.0 cannot carry at all,
/// not even as references (U+0000–U+001F other than TAB/LF/CR, U+FFFE, U+FFFF), are
/// dropped: they are NUL padding or control bytes from EXIF strings, not text.
package enum XMPSerializer {
    static let rdf = XMPNamespace(prefix: "rdf", uri: "http://www.w3.org/1999/02/22-rdf-syntax-ns#")
    static let meta = XMPNamespace(prefix: "x", uri: "adobe:ns:meta/")
    /// The `rdf:about` of a Description when the source packet gives none.
    static let emptyAbout = Array(#"rdf:about="""#.utf8)

    /// A packet with an empty `rdf:RDF`, into which properties are inserted like into any
    /// source packet: what a JPEG gets when its source has no XMP. No padding: the JPEG is
    /// written once, never edited in place.
    static let emptyPacket = Array("""
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="\(rdf.uri)">
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """.utf8)

    /// A complete `<x:xmpmeta>` holding one Description, without packet wrapper: the
    /// serialized form of an Extended XMP packet.
    static func xmpmeta(_ description: [UInt8]) -> [UInt8] {
        Array("<x:xmpmeta xmlns:x=\"\(meta.uri)\">\n <rdf:RDF xmlns:rdf=\"\(rdf.uri)\">\n ".utf8)
            + description + Array("\n </rdf:RDF>\n</x:xmpmeta>\n".utf8)
    }

    /// `xmlns:prefix="uri"`.
    static func declaration(_ namespace: XMPNamespace) -> [UInt8] {
        Array("xmlns:\(namespace.prefix)=\"".utf8) + escaped(namespace.uri, attribute: true, asciiOnly: true) + [UInt8(ascii: "\"")]
    }

    /// One `rdf:Description`. `attributes` are whole attribute texts written as they are
    /// (`rdf:about=""`, `xmlns:…`: the caller declares every namespace used); text
    /// properties follow as attributes, other properties as child elements, then
    /// `children` (property elements copied from a source packet) as they are.
    static func description(attributes: [[UInt8]], properties: [XMPProperty], children: [ArraySlice<UInt8>] = [], asciiOnly: Bool) -> [UInt8] {
        var out = Array("<rdf:Description".utf8)
        for attribute in attributes { out += [UInt8(ascii: " ")] + attribute }
        var elements: [UInt8] = []
        for property in properties {
            if case .text = property.value {
                out += serialized(property, asciiOnly: asciiOnly)
            } else {
                elements += serialized(property, asciiOnly: asciiOnly)
            }
        }
        for child in children { elements += Array("\n  ".utf8) + child }
        guard !elements.isEmpty else { return out + Array("/>".utf8) }
        return out + [UInt8(ascii: ">")] + elements + Array("\n </rdf:Description>".utf8)
    }

    /// What one property adds to a Description: ` p:name="v"` for text, a child element
    /// on its own line otherwise.
    static func serialized(_ property: XMPProperty, asciiOnly: Bool) -> [UInt8] {
        let name = Array(property.qualifiedName.utf8)
        func item(_ text: String, _ attributes: String = "") -> [UInt8] {
            Array("<rdf:li\(attributes)>".utf8) + escaped(text, attribute: false, asciiOnly: asciiOnly) + Array("</rdf:li>".utf8)
        }
        let content: [UInt8]
        switch property.value {
        case .text(let text):
            return [UInt8(ascii: " ")] + name + Array("=\"".utf8) + escaped(text, attribute: true, asciiOnly: asciiOnly) + [UInt8(ascii: "\"")]
        case .languageAlternative(let text):
            content = Array("<rdf:Alt>".utf8) + item(text, " xml:lang=\"x-default\"") + Array("</rdf:Alt>".utf8)
        case .orderedArray(let items):
            content = Array("<rdf:Seq>".utf8) + items.flatMap { item($0) } + Array("</rdf:Seq>".utf8)
        case .resourceSequence(let element, let entries):
            let elementName = Array("\(element.namespace.prefix):\(element.name)".utf8)
            content = Array("<rdf:Seq>".utf8) + entries.flatMap { attributes in
                Array("<rdf:li rdf:parseType=\"Resource\"><".utf8) + elementName
                    + attributes.flatMap { serialized($0, asciiOnly: asciiOnly) } + Array("/></rdf:li>".utf8)
            } + Array("</rdf:Seq>".utf8)
        }
        return Array("\n  <".utf8) + name + [UInt8(ascii: ">")] + content + Array("</".utf8) + name + [UInt8(ascii: ">")]
    }

    /// `text` as XML character data (see the type's comment). `asciiOnly`: every
    /// character above U+007F as a character reference, for packets that are not UTF-8.
    package static func escaped(_ text: String, attribute: Bool, asciiOnly: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x22 where attribute: out.append(contentsOf: "&quot;".utf8)
            case 0x0D: out.append(contentsOf: reference(scalar))
            case 0x09, 0x0A:
                if attribute { out.append(contentsOf: reference(scalar)) } else { out.append(UInt8(scalar.value)) }
            case 0x00..<0x20, 0xFFFE, 0xFFFF: continue
            case 0x20..<0x80: out.append(UInt8(scalar.value))
            default:
                if asciiOnly {
                    out.append(contentsOf: reference(scalar))
                } else {
                    UTF8.encode(scalar) { out.append($0) }
                }
            }
        }
        return out
    }

    /// `&#xHEX;`.
    private static func reference(_ scalar: Unicode.Scalar) -> String.UTF8View {
        "&#x\(String(scalar.value, radix: 16, uppercase: true));".utf8
    }
}
