import H2JSupport

/// Adds properties to an XMP packet and fits the result into one JPEG APP1, moving what
/// does not fit into Extended XMP (XMP Specification Part 3, §1.1.3.1).
///
/// The added properties go on a new `rdf:Description` just before `</rdf:RDF>`, with the
/// `rdf:about` of the packet's first Description and its own namespace declarations, so
/// its prefixes cannot clash with the packet's. Each step below runs only while the
/// packet is over `limit` bytes:
/// 1. the packet as it is, plus the new Description;
/// 2. without the padding (the white space before `<?xpacket end`), which loses nothing;
/// 3. properties move to an Extended XMP packet, largest first: the added ones except
///    `h2j:` (fields moved out of an oversized EXIF), then top-level property elements
///    of the packet's Descriptions (UTF-8 packets only: the extended packet is UTF-8),
///    until the standard packet, now carrying `xmpNote:HasExtendedXMP`, fits. `h2j:`
///    properties (the provenance mark) always stay in the standard packet;
/// 4. if it still does not fit, there is no XMP, and a warning says so.
///
/// The packet's bytes are otherwise kept as they are.
enum XMPPacketFitter {
    struct Result {
        /// The standard packet; nil when nothing fits.
        var standard: [UInt8]?
        /// The Extended XMP packet and its GUID, when properties had to move.
        var extended: (packet: [UInt8], guid: String)?
        var warnings: [Warning]
    }

    /// `structure` is the packet's (nil: nothing can be inserted or moved, so `adding`
    /// must be empty); `encoding` says how added text is written.
    static func fit(_ packet: [UInt8], structure: XMPPacketStructure?, adding: [XMPProperty], encoding: XMPTextEncoding, limit: Int) -> Result {
        let newDescription = NewDescription(structure: structure, asciiOnly: encoding != .utf8)
        let insertAt = structure?.rdfEnd ?? packet.count
        var staying = adding
        var inserted = newDescription.bytes(staying)
        var removed: [Range<Int>] = []
        var removedBytes = 0
        var size: Int { packet.count - removedBytes + inserted.count }
        func render() -> [UInt8] { Self.render(packet, removing: removed, inserting: inserted, at: insertAt) }

        let originalSize = size
        guard originalSize > limit else { return Result(standard: render(), warnings: []) }
        var paddingNote = ""
        if let padding = paddingRange(packet, after: structure?.rdfEnd ?? 0) {
            removed.append(padding)
            removedBytes += padding.count
            guard size > limit else { return Result(standard: render(), warnings: []) }
            paddingNote = "; removed \(EXIFText.bytes(padding.count)) byte\(padding.count == 1 ? "" : "s") of padding"
        }
        let dropped = "XMP is \(EXIFText.bytes(originalSize)) bytes, over the \(EXIFText.bytes(limit)) one APP1 holds"
        guard let structure else { return Result(standard: nil, warnings: [Warning(.xmpDropped, dropped + "; dropped it")]) }

        // From here on the standard packet names the extended one; the GUID has a fixed length.
        let placeholder = XMPProperty(.xmpNote, "HasExtendedXMP", .text(String(repeating: "0", count: 32)))
        inserted = newDescription.bytes(staying + [placeholder])
        var namespaces = ExtendedNamespaces(structure)
        var moved: [(name: String, bytes: Int)] = []
        var movedAdded: [XMPProperty] = []
        // The mark and a gain map's claims stay in the standard packet, where readers look.
        let addedBySize = adding.filter { !XMPNamespace.neverExtended.contains($0.namespace) }
            .map { ($0, XMPSerializer.serialized($0, asciiOnly: false).count) }
            .sorted { $0.1 > $1.1 }
        for (property, bytes) in addedBySize {
            guard size > limit else { break }
            guard namespaces.accept(property.namespace) else { continue }
            if let index = staying.firstIndex(of: property) { staying.remove(at: index) }
            movedAdded.append(property)
            moved.append((property.qualifiedName, bytes))
            inserted = newDescription.bytes(staying + [placeholder])
        }
        var movedSource: [XMPPacketStructure.Property] = []
        if size > limit, encoding == .utf8 {
            let mark = Array("\(XMPNamespace.h2j.prefix):".utf8)
            let bySize = structure.properties.filter { !$0.name.starts(with: mark) }.sorted { $0.span.count > $1.span.count }
            for property in bySize {
                guard size > limit else { break }
                guard namespaces.accept(structure, description: property.description) else { continue }
                movedSource.append(property)
                removed.append(property.span)
                removedBytes += property.span.count
                moved.append((String(decoding: property.name, as: UTF8.self), property.span.count))
            }
        }
        guard size <= limit else {
            return Result(standard: nil, warnings: [Warning(.xmpDropped, dropped + " (still \(EXIFText.bytes(size)) bytes with what can move in Extended XMP); dropped it")])
        }

        removed.sort { $0.lowerBound < $1.lowerBound }
        let about = encoding == .utf8 ? newDescription.about : XMPSerializer.emptyAbout
        let children = movedSource.sorted { $0.span.lowerBound < $1.span.lowerBound }.map { packet[$0.span] }
        let extended = XMPSerializer.xmpmeta(XMPSerializer.description(
            attributes: [about] + namespaces.declarations, properties: movedAdded, children: children, asciiOnly: false))
        let guid = ExtendedXMP.guid(of: extended)
        inserted = newDescription.bytes(staying + [XMPProperty(.xmpNote, "HasExtendedXMP", .text(guid))])
        let segments = (extended.count + ExtendedXMP.maxChunkBytes - 1) / ExtendedXMP.maxChunkBytes
        let list = moved.prefix(8).map { "\($0.name) (\(EXIFText.bytes($0.bytes)) bytes)" }.joined(separator: ", ")
            + (moved.count > 8 ? " and \(moved.count - 8) more" : "")
        let warning = "\(dropped): moved \(list) to Extended XMP (\(EXIFText.bytes(extended.count)) bytes in "
            + "\(segments) APP1 segment\(segments == 1 ? "" : "s"))\(paddingNote)"
        return Result(standard: render(), extended: (extended, guid), warnings: [Warning(.xmpExtended, warning)])
    }

    /// The white space just before the last `<?xpacket end`, when it starts after `start`.
    static func paddingRange(_ packet: [UInt8], after start: Int) -> Range<Int>? {
        var trailer: Int?
        var from = start
        while let found = packet.firstOffset(of: "<?xpacket end", from: from) {
            trailer = found
            from = found + 1
        }
        guard let end = trailer else { return nil }
        var begin = end
        while begin > start, XMPPropertyScanner.isSpace(packet[begin - 1]) { begin -= 1 }
        return begin < end ? begin..<end : nil
    }

    /// `packet` without the `removing` ranges (ascending, disjoint), with `insertion` at `insertAt`.
    static func render(_ packet: [UInt8], removing: [Range<Int>], inserting insertion: [UInt8], at insertAt: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(packet.count + insertion.count)
        var copied = 0
        var inserted = false
        for range in removing.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if !inserted, insertAt <= range.lowerBound {
                out += packet[copied..<max(copied, insertAt)] + insertion
                copied = max(copied, insertAt)
                inserted = true
            }
            out += packet[copied..<max(copied, range.lowerBound)]
            copied = max(copied, range.upperBound)
        }
        if !inserted {
            out += packet[copied..<max(copied, insertAt)] + insertion
            copied = max(copied, insertAt)
        }
        return out + packet[copied...]
    }
}

/// The Description heic2jpg inserts into a packet.
private struct NewDescription {
    /// The packet's first `rdf:about` attribute, or `rdf:about=""`.
    let about: [UInt8]
    /// Whether `rdf` must be declared (the packet binds it only on its Descriptions, or not at all).
    let declaresRDF: Bool
    let asciiOnly: Bool

    init(structure: XMPPacketStructure?, asciiOnly: Bool) {
        about = structure?.about.map { Array($0) } ?? XMPSerializer.emptyAbout
        declaresRDF = !(structure?.ancestorsBind(XMPSerializer.rdf.prefix, to: XMPSerializer.rdf.uri) ?? true)
        self.asciiOnly = asciiOnly
    }

    /// The Description with `properties` and the line break after it; empty for none.
    func bytes(_ properties: [XMPProperty]) -> [UInt8] {
        guard !properties.isEmpty else { return [] }
        var attributes = [about]
        if declaresRDF { attributes.append(XMPSerializer.declaration(XMPSerializer.rdf)) }
        var prefixes: Set<String> = []
        for namespace in properties.flatMap(\.namespaces) where prefixes.insert(namespace.prefix).inserted {
            attributes.append(XMPSerializer.declaration(namespace))
        }
        return [UInt8(ascii: " ")] + XMPSerializer.description(attributes: attributes, properties: properties, asciiOnly: asciiOnly)
            + [UInt8(ascii: "\n")]
    }
}

/// The namespace declarations of the extended packet's Description: those in scope inside
/// the source's `rdf:RDF`, plus each moved property's: its Description's own, or an added
/// property's namespace. A property whose declarations would bind a prefix already
/// declared to another URI does not move (one start tag cannot bind a prefix twice).
private struct ExtendedNamespaces {
    private var values: [[UInt8]: [UInt8]]
    /// Whole attributes, one per prefix, in first-declared order.
    private(set) var declarations: [[UInt8]] = []
    private var positions: [[UInt8]: Int] = [:]
    /// Descriptions whose declarations were checked: accepted or not.
    private var checked: [Int: Bool] = [:]

    init(_ structure: XMPPacketStructure) {
        // `rdf` is declared by the extended packet's own rdf:RDF and may not be rebound.
        values = [Array(XMPSerializer.rdf.prefix.utf8): Array(XMPSerializer.rdf.uri.utf8)]
        for declaration in structure.ancestorDeclarations {
            let prefix = Array(declaration.prefix), value = Array(declaration.value)
            if prefix.elementsEqual(XMPSerializer.rdf.prefix.utf8)
                || prefix.elementsEqual(XMPSerializer.meta.prefix.utf8) && value.elementsEqual(XMPSerializer.meta.uri.utf8) { continue }
            values[prefix] = value  // inner declarations override outer ones
            if let position = positions[prefix] {
                declarations[position] = Array(declaration.text)
            } else {
                positions[prefix] = declarations.count
                declarations.append(Array(declaration.text))
            }
        }
    }

    /// Whether the properties of the `description`th Description can move (and, if so,
    /// its declarations are added).
    mutating func accept(_ structure: XMPPacketStructure, description: Int) -> Bool {
        if let known = checked[description] { return known }
        let own = structure.descriptions.indices.contains(description) ? structure.descriptions[description].declarations : []
        let accepted = add(own.map { (Array($0.prefix), Array($0.value), Array($0.text)) })
        checked[description] = accepted
        return accepted
    }

    /// Whether a property in `namespace` can move (and, if so, the namespace is declared).
    mutating func accept(_ namespace: XMPNamespace) -> Bool {
        add([(Array(namespace.prefix.utf8), XMPSerializer.escaped(namespace.uri, attribute: true, asciiOnly: true), XMPSerializer.declaration(namespace))])
    }

    private mutating func add(_ new: [(prefix: [UInt8], value: [UInt8], text: [UInt8])]) -> Bool {
        for declaration in new {
            if let existing = values[declaration.prefix], existing != declaration.value { return false }
        }
        for declaration in new where values[declaration.prefix] == nil {
            values[declaration.prefix] = declaration.value
            positions[declaration.prefix] = declarations.count
            declarations.append(declaration.text)
        }
        return true
    }
}
