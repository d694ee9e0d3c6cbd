import H2JSupport
import H2JJPEG

/// The XMP segments of one output JPEG.
package struct JPEGXMP: Sendable, Equatable {
    /// The standard APP1 payload: `JPEGAPPSignature.xmp` + packet (at most 65,502 bytes). nil = no XMP.
    package var payload: [UInt8]?
    /// Extended XMP APP1 payloads, in offset order, written right after the standard one;
    /// empty unless the standard packet carries `xmpNote:HasExtendedXMP`.
    package var extendedPayloads: [[UInt8]]
    /// Human-readable per-file warnings.
    package var warnings: [Warning]

    package init(payload: [UInt8]?, extendedPayloads: [[UInt8]] = [], warnings: [Warning]) {
        self.payload = payload
        self.extendedPayloads = extendedPayloads
        self.warnings = warnings
    }
}

/// Prepares an XMP packet for JPEG APP1 segments (XMP Specification Part 3, §1.1.3).
///
/// The packet is passed through byte for byte (it need not be UTF-8), except that
/// `tiff:Orientation` becomes 1 and `exif:PixelXDimension`/`exif:PixelYDimension` take
/// the output size, where present: the pixels are already upright, and a stale XMP
/// orientation makes some viewers rotate twice. A stale `xmpNote:HasExtendedXMP` is
/// removed (a HEIF has no Extended XMP for it to name). Every `hdrgm:` property and the
/// `Container:Directory` go too (`removingGainMapClaims`): heic2jpg writes no gain map
/// into its JPEGs yet, and a source's Ultra HDR claims (Samsung copies them into the
/// HEIC's XMP) would tell viewers of a gain map that is not there.
///
/// Properties can be added (`adding`): fields moved out of an oversized EXIF, and the
/// provenance mark (`h2j:`). They go on a Description of their own before `</rdf:RDF>`
/// (`XMPPacketFitter`), unless the packet already has a property of that name; `h2j:`
/// properties replace the packet's own, so converting an output again never yields two
/// marks. With no source packet they make a new one. Packets over one APP1 are fitted
/// by moving properties into Extended XMP (`XMPPacketFitter`, `ExtendedXMP`).
///
/// Encodings (`XMPTextEncoding`): into UTF-8 packets text is inserted as UTF-8; into other
/// ASCII-compatible ones (Latin-1, …) as ASCII with character references; into UTF-16 or
/// UTF-32 packets nothing is inserted (a warning names what was not added).
///
/// Invariant: never traps, whatever the packet.
package enum XMPForJPEG {
    /// Largest packet that fits one APP1 with the header (65,533 − 29 − 2 reserved by the spec).
    package static let maxPacketBytes = 65_502

    /// The APP1 payloads for `packet` (nil: the source has none) with `adding` added,
    /// for upright pixels of width×height. `stripGPS` removes every `exif:GPS…` property first.
    package static func make(packet: [UInt8]?, width: Int, height: Int, stripGPS: Bool = false, adding: [XMPProperty] = []) -> JPEGXMP {
        make(packet: packet, width: width, height: height, stripGPS: stripGPS, adding: adding, packetLimit: maxPacketBytes)
    }

    /// As `make`, with the standard packet's size limit as a parameter so tests can
    /// exercise Extended XMP with small packets.
    static func make(packet source: [UInt8]?, width: Int, height: Int, stripGPS: Bool = false, adding: [XMPProperty], packetLimit: Int) -> JPEGXMP {
        var packet = source ?? []
        let encoding = XMPTextEncoding(of: packet)
        guard encoding != .wide else { return passingThrough(wide: packet, notAdding: adding, limit: packetLimit) }
        while packet.last == 0 { packet.removeLast() }  // some writers add a NUL terminator
        if packet.isEmpty {
            guard !adding.isEmpty else { return JPEGXMP(payload: nil, warnings: []) }
            packet = XMPSerializer.emptyPacket
        }
        var names: Set<String> = []
        var adding = adding.filter { names.insert($0.qualifiedName).inserted }  // one value per name: the first
        packet = edited(packet, width: width, height: height, stripGPS: stripGPS, removingMark: adding.contains { $0.namespace == .h2j })

        var warnings: [Warning] = []
        let structure = XMPPacketStructure(packet)
        if structure == nil, !adding.isEmpty {
            warnings.append(Warning(.xmpNotAdded, "XMP has no well-formed rdf:RDF element to add to: did not add \(list(adding))"))
            adding = []
        }
        let scanner = XMPPropertyScanner(packet)
        let present = adding.filter { $0.namespace != .h2j && !scanner.properties(named: $0.qualifiedName).isEmpty }
        if !present.isEmpty {
            warnings.append(Warning(.xmpPropertyKept, "XMP already has \(list(present)): kept the packet's value rather than adding a second"))
            adding.removeAll { present.contains($0) }
        }

        let fitted = XMPPacketFitter.fit(packet, structure: structure, adding: adding, encoding: encoding, limit: packetLimit)
        warnings += fitted.warnings
        guard let standard = fitted.standard else { return JPEGXMP(payload: nil, warnings: warnings) }
        guard let extended = fitted.extended else { return JPEGXMP(payload: JPEGAPPSignature.xmp + standard, warnings: warnings) }
        guard let payloads = ExtendedXMP.payloads(packet: extended.packet, guid: extended.guid) else {
            return JPEGXMP(payload: nil, warnings: warnings + [Warning(.xmpDropped, "Extended XMP is \(EXIFText.bytes(extended.packet.count)) bytes, more than its length field holds; dropped the XMP")])
        }
        return JPEGXMP(payload: JPEGAPPSignature.xmp + standard, extendedPayloads: payloads, warnings: warnings)
    }

    /// A UTF-16 or UTF-32 packet, byte for byte (NUL terminator included: trimming NULs
    /// would cut a code unit), or nothing when it is over the limit.
    private static func passingThrough(wide packet: [UInt8], notAdding adding: [XMPProperty], limit: Int) -> JPEGXMP {
        var warnings: [Warning] = []
        if !adding.isEmpty {
            warnings.append(Warning(.xmpNotAdded, "XMP is UTF-16 or UTF-32, which nothing can be inserted into: did not add \(list(adding))"))
        }
        guard packet.count <= limit else {
            return JPEGXMP(payload: nil, warnings: warnings + [Warning(.xmpDropped, "XMP is \(EXIFText.bytes(packet.count)) bytes, over the \(EXIFText.bytes(limit)) one APP1 holds; dropped it")])
        }
        return JPEGXMP(payload: JPEGAPPSignature.xmp + packet, warnings: warnings)
    }

    /// The edits every packet gets: GPS removed (`stripGPS`), orientation and size
    /// values, a stale `xmpNote:HasExtendedXMP` removed, and with `removingMark` the
    /// packet's own `h2j:` properties and the Descriptions they leave empty.
    private static func edited(_ packet: [UInt8], width: Int, height: Int, stripGPS: Bool, removingMark: Bool) -> [UInt8] {
        var packet = packet
        if stripGPS { packet = removingProperties(prefixed: "exif:GPS", from: packet) }
        packet = replacingValue(of: "tiff:Orientation", with: "1", in: packet)
        packet = replacingValue(of: "exif:PixelXDimension", with: String(width), in: packet)
        packet = replacingValue(of: "exif:PixelYDimension", with: String(height), in: packet)
        packet = removingProperties(prefixed: "xmpNote:HasExtendedXMP", from: packet)
        packet = removingGainMapClaims(from: packet)
        if removingMark {
            let unmarked = removingProperties(prefixed: "\(XMPNamespace.h2j.prefix):", from: packet)
            if unmarked.count != packet.count {
                packet = removingEmptyDescriptions(declaring: XMPNamespace.h2j.prefix, from: unmarked)
            }
        }
        return packet
    }

    /// Removes the top-level Descriptions left empty that declare `prefix`: what remains
    /// of a mark once its properties are removed. The space before and line break after
    /// each, as `XMPPacketFitter` inserts them, go too, so a second conversion writes the
    /// same packet as the first.
    static func removingEmptyDescriptions(declaring prefix: String, from packet: [UInt8]) -> [UInt8] {
        guard let structure = XMPPacketStructure(packet) else { return packet }
        let ranges = structure.descriptions
            .filter { $0.isEmpty && $0.declarations.contains { $0.prefix.elementsEqual(prefix.utf8) } }
            .map { description in
                var range = description.span
                if range.lowerBound > 0, packet[range.lowerBound - 1] == UInt8(ascii: " ") { range = (range.lowerBound - 1)..<range.upperBound }
                if range.upperBound < packet.count, packet[range.upperBound] == UInt8(ascii: "\n") { range = range.lowerBound..<(range.upperBound + 1) }
                return range
            }
        return XMPPacketFitter.render(packet, removing: ranges, inserting: [], at: 0)
    }

    /// Adobe's gain-map namespace (`hdrgm:Version`, …) and Google's container
    /// namespace (`Container:Directory`, naming the gain map's place in the file): the
    /// claims of an Ultra HDR JPEG.
    static let gainMapNamespaces: Set<String> = ["http://ns.adobe.com/hdr-gain-map/1.0/", "http://ns.google.com/photos/1.0/container/"]

    /// Removes the properties of `gainMapNamespaces`, under the prefixes the packet's
    /// Descriptions bind them to and the usual `hdrgm` and `Container`, and the
    /// Descriptions that leaves empty.
    static func removingGainMapClaims(from packet: [UInt8]) -> [UInt8] {
        var prefixes: Set<String> = ["hdrgm", "Container"]
        for description in XMPPacketStructure(packet)?.descriptions ?? [] {
            for declaration in description.declarations
            where !declaration.prefix.isEmpty && gainMapNamespaces.contains(String(decoding: declaration.value, as: UTF8.self)) {
                prefixes.insert(String(decoding: declaration.prefix, as: UTF8.self))
            }
        }
        var packet = packet
        for prefix in prefixes.sorted() {
            let removed = removingProperties(prefixed: prefix + ":", from: packet)
            if removed.count != packet.count { packet = removingEmptyDescriptions(declaring: prefix, from: removed) }
        }
        return packet
    }

    /// `a:b, c:d` for a warning.
    private static func list(_ properties: [XMPProperty]) -> String {
        properties.map(\.qualifiedName).joined(separator: ", ")
    }

    /// Replaces the value of the simple property `name` (attribute or element form; an
    /// element whose content holds markup is a structure, and is left alone).
    static func replacingValue(of name: String, with value: String, in packet: [UInt8]) -> [UInt8] {
        let scanner = XMPPropertyScanner(packet)
        let replacement = Array(value.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(packet.count)
        var copied = 0
        for property in scanner.properties(named: name) where !packet[property.value].contains(UInt8(ascii: "<")) {
            if !property.isAttribute && property.value.isEmpty { continue }  // <name/>: nothing to replace
            out += packet[copied..<property.value.lowerBound]
            out += replacement
            copied = property.value.upperBound
        }
        return out + packet[copied...]
    }

    /// Removes every property whose name starts with `prefix`: an attribute with the
    /// white space before it, an element through its end tag (a structured value too).
    static func removingProperties(prefixed prefix: String, from packet: [UInt8]) -> [UInt8] {
        let scanner = XMPPropertyScanner(packet)
        var out: [UInt8] = []
        out.reserveCapacity(packet.count)
        var copied = 0
        for property in scanner.properties(named: prefix, prefix: true) {
            out += packet[copied..<property.span.lowerBound]
            if property.isAttribute {
                while let last = out.last, XMPPropertyScanner.isSpace(last) { out.removeLast() }
            }
            copied = property.span.upperBound
        }
        return out + packet[copied...]
    }
}
