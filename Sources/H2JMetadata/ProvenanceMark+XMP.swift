import H2JSupport

extension ProvenanceMark {
    /// Local names of the mark's properties, in `xmpProperties` order.
    package static let propertyNames = ["sourceName", "sourceSHA256", "mode", "quality", "version"]

    /// Reads the mark from an XMP packet, or nil when the packet has none or a malformed one.
    ///
    /// The namespace is found by its URI (`XMPNamespace.h2j`), whatever prefix the packet
    /// binds it to, so a packet rewritten by another tool is still read. Each property may
    /// be in attribute form (how heic2jpg writes it) or element form (how some editors
    /// rewrite it); the first occurrence counts. All but the source name (which a strip
    /// mode mark leaves out) must be present and valid: a 64-digit hex digest (returned
    /// lowercase), a known mode (`MetadataMode.markValue`), a quality of 1–100, and a
    /// non-empty version. Never traps, whatever the bytes.
    package init?(xmp packet: [UInt8]) {
        let scanner = XMPPropertyScanner(packet)
        for prefix in Self.prefixes(boundTo: XMPNamespace.h2j.uri, in: scanner) {
            if let mark = Self.mark(prefix: prefix, in: scanner) {
                self = mark
                return
            }
        }
        return nil
    }

    /// Prefixes that `xmlns:prefix="uri"` declarations bind to `uri`, in packet order.
    static func prefixes(boundTo uri: String, in scanner: XMPPropertyScanner) -> [String] {
        let packet = scanner.packet
        return scanner.properties(named: "xmlns:", prefix: true).compactMap { declaration in
            guard declaration.isAttribute, packet[declaration.value].elementsEqual(uri.utf8) else { return nil }
            let name = packet[declaration.span].prefix { !XMPPropertyScanner.endsName($0) }
            let prefix = name.dropFirst("xmlns:".utf8.count)
            return prefix.isEmpty ? nil : String(decoding: prefix, as: UTF8.self)
        }
    }

    private static func mark(prefix: String, in scanner: XMPPropertyScanner) -> ProvenanceMark? {
        var values: [String: String] = [:]
        for name in propertyNames {
            guard let property = scanner.properties(named: "\(prefix):\(name)").first else {
                if name == "sourceName" { continue }
                return nil
            }
            // An element whose content holds markup is a structure, not a simple value.
            guard !scanner.packet[property.value].contains(UInt8(ascii: "<")) else { return nil }
            values[name] = XMLText.decoding(scanner.packet[property.value])
        }
        guard let digest = values["sourceSHA256"]?.lowercased(),
              Hex.isSHA256(digest),
              let mode = MetadataMode.allCases.first(where: { $0.markValue == values["mode"] }),
              let quality = values["quality"].flatMap({ Int($0) }), (1...100).contains(quality),
              let version = values["version"], !version.isEmpty
        else { return nil }
        return ProvenanceMark(sourceName: values["sourceName"], sourceSHA256: digest, mode: mode, quality: quality, version: version)
    }
}
