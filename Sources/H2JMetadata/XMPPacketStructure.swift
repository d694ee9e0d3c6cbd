/// Where properties can be added to an XMP packet and which can be moved out of it:
/// the `</rdf:RDF>` end tag, the first Description's `rdf:about`, and each top-level
/// `rdf:Description`'s property elements with the namespace declarations in scope.
///
/// A linear scan of tags (start, end, empty-element; comments, processing instructions,
/// CDATA and `<!…>` declarations skipped; attribute values quote-aware) with a stack of
/// open elements, up to the first `</rdf:RDF>`. Works on the bytes of any
/// ASCII-compatible encoding. Names are matched as written (`rdf:RDF`,
/// `rdf:Description`, `rdf:about`), the prefix every XMP writer uses.
///
/// Invariant: never traps; `nil` when the tags up to `</rdf:RDF>` are not balanced or a
/// tag is malformed, so nothing is inserted into or moved out of a packet that is not
/// well-formed where it matters. Every range lies inside the packet.
struct XMPPacketStructure {
    /// One `xmlns` or `xmlns:prefix` attribute.
    struct Declaration {
        /// The prefix (empty for a default namespace declaration).
        let prefix: ArraySlice<UInt8>
        /// The raw value between the quotes.
        let value: ArraySlice<UInt8>
        /// The whole attribute, `xmlns:p="v"`.
        let text: ArraySlice<UInt8>
    }

    /// A top-level `rdf:Description`.
    struct Description {
        /// Its own namespace declarations.
        let declarations: [Declaration]
        /// From `<` to one past the `>` of its end tag (or of the empty-element tag).
        let span: Range<Int>
        /// No properties: no attributes but `rdf:about` and namespace declarations, and
        /// nothing but white space inside.
        let isEmpty: Bool
    }

    /// A property element directly inside a top-level Description.
    struct Property {
        /// From `<` to one past the `>` of its end tag (or of the empty-element tag).
        let span: Range<Int>
        /// Its qualified name as written.
        let name: ArraySlice<UInt8>
        /// Index into `descriptions`.
        let description: Int
    }

    /// Offset of the `</rdf:RDF` end tag: where a new Description goes.
    let rdfEnd: Int
    /// The first Description's `rdf:about="…"` attribute as written, when it has one.
    let about: ArraySlice<UInt8>?
    /// Declarations in scope inside `rdf:RDF` (its own and its ancestors'), outermost first.
    let ancestorDeclarations: [Declaration]
    /// Top-level Descriptions, in document order.
    let descriptions: [Description]
    /// Top-level property elements of every Description, in document order.
    let properties: [Property]

    /// Whether `prefix` is bound to `uri` inside `rdf:RDF` (the innermost declaration wins).
    func ancestorsBind(_ prefix: String, to uri: String) -> Bool {
        ancestorDeclarations.last { $0.prefix.elementsEqual(prefix.utf8) }?.value.elementsEqual(uri.utf8) ?? false
    }

    private enum Role {
        case other, rdf
        /// `index` in `descriptions`; `onlyDeclarations`: no attribute but `rdf:about`
        /// and namespace declarations.
        case description(index: Int, onlyDeclarations: Bool)
        case property(description: Int)
    }

    private struct OpenElement {
        let name: ArraySlice<UInt8>
        let start: Int
        /// One past the start tag's `>`.
        let contentStart: Int
        let declarationsBefore: Int
        let role: Role
    }

    private struct Tag {
        let name: ArraySlice<UInt8>
        let attributes: [(name: ArraySlice<UInt8>, text: ArraySlice<UInt8>, value: ArraySlice<UInt8>)]
        let isEmpty: Bool
        /// One past the closing `>`.
        let end: Int
    }

    init?(_ packet: [UInt8]) {
        var stack: [OpenElement] = []
        var declarations: [Declaration] = []
        var rdfDepth: Int?
        var about: ArraySlice<UInt8>?
        var ancestors: [Declaration] = []
        var descriptions: [Description] = []
        var descriptionCount = 0
        var properties: [Property] = []
        /// Records what `element` was, now that it ends at `end` (its content ends at `contentEnd`).
        func close(_ element: OpenElement, contentEnd: Int, end: Int) {
            switch element.role {
            case .description(_, let onlyDeclarations):
                let blank = packet[element.contentStart..<max(element.contentStart, contentEnd)].allSatisfy(XMPPropertyScanner.isSpace)
                descriptions.append(Description(declarations: Array(declarations[element.declarationsBefore...]),
                                                span: element.start..<end, isEmpty: onlyDeclarations && blank))
            case .property(let description):
                properties.append(Property(span: element.start..<end, name: element.name, description: description))
            case .rdf, .other:
                break
            }
            declarations.removeLast(declarations.count - element.declarationsBefore)
        }

        var i = 0
        while let open = packet[i...].firstIndex(of: UInt8(ascii: "<")) {
            switch Self.markup(packet, at: open) {
            case .tag: break
            case .unterminated: return nil
            case .endsAt(let end):
                i = end
                continue
            }
            if packet.hasBytes("</", at: open) {
                var nameEnd = open + 2
                while nameEnd < packet.count, !XMPPropertyScanner.endsName(packet[nameEnd]) { nameEnd += 1 }
                guard let element = stack.popLast(), element.name.elementsEqual(packet[(open + 2)..<nameEnd]),
                      let gt = packet[nameEnd...].firstIndex(of: UInt8(ascii: ">")),
                      packet[nameEnd..<gt].allSatisfy(XMPPropertyScanner.isSpace) else { return nil }
                if case .rdf = element.role {
                    self.init(rdfEnd: open, about: about, ancestorDeclarations: ancestors, descriptions: descriptions, properties: properties)
                    return
                }
                close(element, contentEnd: open, end: gt + 1)
                i = gt + 1
                continue
            }
            guard let tag = Self.startTag(packet, at: open) else { return nil }
            let before = declarations.count
            var onlyDeclarations = true
            for attribute in tag.attributes {
                let rest = attribute.name.dropFirst(5)
                if attribute.name.starts(with: "xmlns".utf8), rest.isEmpty || rest.first == UInt8(ascii: ":") {
                    declarations.append(Declaration(prefix: rest.dropFirst(), value: attribute.value, text: attribute.text))
                } else if !attribute.name.elementsEqual("rdf:about".utf8) {
                    onlyDeclarations = false
                }
            }
            let role: Role
            if rdfDepth == nil, tag.name.elementsEqual("rdf:RDF".utf8) {
                rdfDepth = stack.count
                ancestors = declarations
                role = .rdf
            } else if let rdf = rdfDepth, stack.count == rdf + 1, tag.name.elementsEqual("rdf:Description".utf8) {
                if descriptionCount == 0 {
                    about = tag.attributes.first { $0.name.elementsEqual("rdf:about".utf8) }?.text
                }
                role = .description(index: descriptionCount, onlyDeclarations: onlyDeclarations)
                descriptionCount += 1
            } else if let rdf = rdfDepth, stack.count == rdf + 2, case .description(let index, _) = stack[rdf + 1].role {
                role = .property(description: index)
            } else {
                role = .other
            }
            let element = OpenElement(name: tag.name, start: open, contentStart: tag.end, declarationsBefore: before, role: role)
            if tag.isEmpty {
                close(element, contentEnd: tag.end, end: tag.end)
            } else {
                stack.append(element)
            }
            i = tag.end
        }
        return nil
    }

    private init(rdfEnd: Int, about: ArraySlice<UInt8>?, ancestorDeclarations: [Declaration], descriptions: [Description], properties: [Property]) {
        self.rdfEnd = rdfEnd
        self.about = about
        self.ancestorDeclarations = ancestorDeclarations
        self.descriptions = descriptions
        self.properties = properties
    }

    private enum Markup {
        /// Not markup to skip: a tag.
        case tag
        case unterminated
        /// One past the terminator.
        case endsAt(Int)
    }

    /// Comments, processing instructions, CDATA sections and `<!…>` declarations.
    private static func markup(_ packet: [UInt8], at open: Int) -> Markup {
        let terminator: String
        if packet.hasBytes("<!--", at: open) {
            terminator = "-->"
        } else if packet.hasBytes("<![CDATA[", at: open) {
            terminator = "]]>"
        } else if packet.hasBytes("<?", at: open) {
            terminator = "?>"
        } else if packet.hasBytes("<!", at: open) {
            terminator = ">"
        } else {
            return .tag
        }
        guard let end = packet.firstOffset(of: terminator, from: open + 2) else { return .unterminated }
        return .endsAt(end + terminator.utf8.count)
    }

    /// The start or empty-element tag at `open`: name, attributes, and where it ends.
    private static func startTag(_ packet: [UInt8], at open: Int) -> Tag? {
        var j = open + 1
        while j < packet.count, !XMPPropertyScanner.endsName(packet[j]) { j += 1 }
        let name = packet[(open + 1)..<j]
        guard !name.isEmpty else { return nil }
        var attributes: [(name: ArraySlice<UInt8>, text: ArraySlice<UInt8>, value: ArraySlice<UInt8>)] = []
        while true {
            while j < packet.count, XMPPropertyScanner.isSpace(packet[j]) { j += 1 }
            guard j < packet.count else { return nil }
            if packet[j] == UInt8(ascii: ">") {
                return Tag(name: name, attributes: attributes, isEmpty: false, end: j + 1)
            }
            if packet.hasBytes("/>", at: j) {
                return Tag(name: name, attributes: attributes, isEmpty: true, end: j + 2)
            }
            let nameStart = j
            while j < packet.count, !XMPPropertyScanner.endsName(packet[j]) { j += 1 }
            let attributeName = packet[nameStart..<j]
            while j < packet.count, XMPPropertyScanner.isSpace(packet[j]) { j += 1 }
            guard !attributeName.isEmpty, j < packet.count, packet[j] == UInt8(ascii: "=") else { return nil }
            j += 1
            while j < packet.count, XMPPropertyScanner.isSpace(packet[j]) { j += 1 }
            guard j < packet.count, packet[j] == UInt8(ascii: "\"") || packet[j] == UInt8(ascii: "'"),
                  let close = packet[(j + 1)...].firstIndex(of: packet[j]) else { return nil }
            attributes.append((attributeName, packet[nameStart...close], packet[(j + 1)..<close]))
            j = close + 1
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether the ASCII `text` occurs at `offset`.
    func hasBytes(_ text: String, at offset: Int) -> Bool {
        guard offset >= 0, offset <= count else { return false }
        return self[offset...].starts(with: text.utf8)
    }

    /// The first offset at or after `start` where the ASCII `text` occurs.
    func firstOffset(of text: String, from start: Int) -> Int? {
        let needle = Array(text.utf8)
        guard let first = needle.first, start >= 0 else { return nil }
        var i = start
        while i < count, let candidate = self[i...].firstIndex(of: first) {
            if self[candidate...].starts(with: needle) { return candidate }
            i = candidate + 1
        }
        return nil
    }
}
