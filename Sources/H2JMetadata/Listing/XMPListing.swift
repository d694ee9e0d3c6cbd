/// Every property of an XMP packet as `MetadataTag`s: attributes and element text under
/// the RDF, named by their path of properties (`Iptc4xmpExt:LocationShown/Iptc4xmpExt:City`),
/// an array's items joined by `; `.
///
/// A tolerant scan, not an XML parser: a malformed packet lists what can be read. Linear
/// in the packet's size. Invariant: never traps; at most `maxProperties` listed.
package enum XMPListing {
    package static let maxProperties = 2000
    /// Elements deeper than this are read as text of the last one kept.
    static let maxDepth = 64

    package static func tags(_ packet: [UInt8]) -> [MetadataTag] {
        var scan = Scan(packet)
        scan.run()
        return scan.order.map { path in
            let last = path.split(separator: "/").last.map(String.init) ?? path
            let prefix = last.split(separator: ":").first.map(String.init) ?? ""
            return MetadataTag(family: "XMP", group: prefix, name: path, value: scan.values[path, default: []].joined(separator: "; "),
                               category: category(path))
        }
    }

    /// What sharing a property at `path` may give away.
    static func category(_ path: String) -> MetadataTag.Category? {
        let names = path.split(separator: "/").map(String.init)
        if names.contains(where: { $0.contains("GPS") || $0.contains("Location") || locationNames.contains($0) }) { return .location }
        if names.contains(where: { identifyingNames.contains($0) || $0.hasPrefix("xmpRights:") }) { return .identifying }
        if names.contains(where: { timeNames.contains($0) }) { return .captureTime }
        return nil
    }

    static let locationNames: Set<String> = [
        "photoshop:City", "photoshop:State", "photoshop:Country", "Iptc4xmpCore:CountryCode", "Iptc4xmpExt:City",
        "Iptc4xmpExt:CountryName", "Iptc4xmpExt:CountryCode", "Iptc4xmpExt:ProvinceState", "Iptc4xmpExt:Sublocation",
        "Iptc4xmpExt:WorldRegion",
    ]
    static let identifyingNames: Set<String> = [
        "aux:SerialNumber", "aux:LensSerialNumber", "aux:OwnerName", "exifEX:BodySerialNumber", "exifEX:LensSerialNumber",
        "exifEX:CameraOwnerName", "exif:ImageUniqueID", "dc:creator", "dc:rights", "photoshop:Credit", "photoshop:AuthorsPosition",
        "xmpMM:DocumentID", "xmpMM:OriginalDocumentID", "xmpMM:InstanceID", "tiff:Artist", "tiff:Copyright",
    ]
    static let timeNames: Set<String> = [
        "xmp:CreateDate", "xmp:ModifyDate", "xmp:MetadataDate", "photoshop:DateCreated", "exif:DateTimeOriginal",
        "exif:DateTimeDigitized", "tiff:DateTime",
    ]

    /// The scan's state: the open elements and the values found, in first-seen order.
    private struct Scan {
        let bytes: [UInt8]
        var i = 0
        var stack: [String] = []
        var order: [String] = []
        var values: [String: [String]] = [:]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func run() {
            while i < bytes.count, order.count < maxProperties {
                if bytes[i] == UInt8(ascii: "<") {
                    tag()
                } else {
                    let start = i
                    while i < bytes.count, bytes[i] != UInt8(ascii: "<") { i += 1 }
                    text(start..<i)
                }
            }
        }

        /// The properties among `elements`: what is not RDF or the packet's wrapper.
        static func path(_ elements: [String]) -> [String] {
            elements.filter { !$0.hasPrefix("rdf:") && !$0.hasPrefix("x:") && !$0.hasPrefix("xmlns") && $0 != "xml" }
        }

        mutating func add(_ path: [String], _ value: String) {
            guard !path.isEmpty else { return }
            let key = path.joined(separator: "/")
            if values[key] == nil {
                guard order.count < maxProperties else { return }
                order.append(key)
            }
            values[key, default: []].append(value)
        }

        mutating func text(_ range: Range<Int>) {
            let value = XMLText.decoding(bytes[range]).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
                .joined(separator: " ")
            guard !value.isEmpty else { return }
            add(Self.path(stack), value)
        }

        /// Skips to just past `end`, or to the end of the packet.
        mutating func skip(past end: [UInt8]) {
            while i < bytes.count {
                if bytes[i...].starts(with: end) { i += end.count; return }
                i += 1
            }
        }

        mutating func name() -> String {
            let start = i
            while i < bytes.count, !Self.endsName(bytes[i]) { i += 1 }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }

        static func endsName(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<")
        }

        mutating func skipSpace() {
            while i < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")].contains(bytes[i]) { i += 1 }
        }

        /// At `<`: a declaration, comment or CDATA skipped; an end tag closes its element;
        /// a start tag lists its attributes and opens its element.
        mutating func tag() {
            let rest = bytes[i...]
            if rest.starts(with: Array("<?".utf8)) { skip(past: Array("?>".utf8)); return }
            if rest.starts(with: Array("<!--".utf8)) { skip(past: Array("-->".utf8)); return }
            if rest.starts(with: Array("<![CDATA[".utf8)) {
                i += 9
                let start = i
                skip(past: Array("]]>".utf8))
                text(start..<max(start, i - 3))
                return
            }
            if rest.starts(with: Array("<!".utf8)) { skip(past: Array(">".utf8)); return }
            if rest.starts(with: Array("</".utf8)) {
                i += 2
                let closing = name()
                skip(past: Array(">".utf8))
                if let open = stack.lastIndex(of: closing) { stack.removeSubrange(open...) }
                return
            }
            i += 1
            let element = name()
            var attributes: [(String, String)] = []
            while i < bytes.count {
                skipSpace()
                guard i < bytes.count else { break }
                if bytes[i] == UInt8(ascii: ">") { i += 1; open(element, attributes); return }
                if bytes[i] == UInt8(ascii: "/") {
                    skip(past: Array(">".utf8))
                    list(element, attributes)
                    return
                }
                let attribute = name()
                guard !attribute.isEmpty else { i += 1; continue }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { continue }
                i += 1
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { continue }
                let quote = bytes[i]
                i += 1
                let start = i
                while i < bytes.count, bytes[i] != quote { i += 1 }
                attributes.append((attribute, XMLText.decoding(bytes[start..<i])))
                i = min(i + 1, bytes.count)
            }
        }

        mutating func open(_ element: String, _ attributes: [(String, String)]) {
            list(element, attributes)
            if stack.count < maxDepth { stack.append(element) }
        }

        /// An element's attributes as properties under it (or under its parent when it is
        /// RDF's); `rdf:resource` is the element's own value.
        mutating func list(_ element: String, _ attributes: [(String, String)]) {
            let here = Self.path(stack + [element])
            for (name, value) in attributes {
                if name == "rdf:resource" { add(here, value); continue }
                guard !name.hasPrefix("xmlns"), !name.hasPrefix("rdf:"), !name.hasPrefix("xml:"), !name.hasPrefix("x:") else { continue }
                add(here + [name], value)
            }
        }
    }
}
