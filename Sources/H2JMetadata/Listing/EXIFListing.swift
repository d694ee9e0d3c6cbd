import H2JSupport

/// Every entry of an EXIF block as `MetadataTag`s, in IFD order, named by `EXIFTagNames`.
/// Pointers and offsets (to the Exif, GPS and Interop IFDs, strips, tiles, the thumbnail)
/// are the block's structure, not its information: they differ between any two blocks
/// and are left out.
package enum EXIFListing {
    /// Tags whose values are offsets into the block.
    static let structural: Set<UInt16> = [0x8769, 0x8825, 0xA005, 0x014A, 0x0111, 0x0117, 0x0144, 0x0145, 0x0201, 0x0202]

    package static func tags(_ exif: EXIFDirectory) -> [MetadataTag] {
        var seen: [String: Int] = [:]
        return exif.ifds.flatMap { ifd -> [MetadataTag] in
            let count = seen[ifd.kind.description, default: 0]
            seen[ifd.kind.description] = count + 1
            // A second IFD of a kind (SubIFDs, later IFDs) is numbered so its tags stay apart.
            let group = ifd.kind.description + (count > 0 ? " #\(count + 1)" : "")
            return ifd.entries.filter { !structural.contains($0.tag) }.map { entry in
                MetadataTag(family: "EXIF", group: group, name: EXIFTagNames.name(entry.tag, in: ifd.kind) ?? "0x" + Hex.string([UInt8(entry.tag >> 8), UInt8(entry.tag & 0xFF)], uppercase: true),
                            value: value(exif, entry), category: category(entry.tag, in: ifd.kind))
            }
        }
    }

    /// What sharing a tag of `kind` may give away.
    static func category(_ tag: UInt16, in kind: EXIFIFDKind) -> MetadataTag.Category? {
        switch (kind, tag) {
        case (.gps, _): .location
        case (_, 0x927C): .makerNote
        case (_, 0x013B), (_, 0x013C), (_, 0x8298), (_, 0xA420), (_, 0xA430), (_, 0xA431), (_, 0xA435), (_, 0xA437), (_, 0x9C9D): .identifying
        case (_, 0x0132), (_, 0x9003), (_, 0x9004), (_, 0x9010), (_, 0x9011), (_, 0x9012), (_, 0x9290), (_, 0x9291), (_, 0x9292): .captureTime
        default: nil
        }
    }

    /// An entry's value as text: ASCII as it reads, numbers as numbers (rationals as
    /// `n/d`), other bytes as text when printable, else their count and first bytes.
    static func value(_ exif: EXIFDirectory, _ entry: TIFFEntry) -> String {
        guard let raw = exif.rawValue(entry) else { return "(\(entry.count) values outside the block)" }
        if entry.tag == 0x927C { return "\(raw.count) bytes" }
        let reader = ByteReader(raw, bigEndian: exif.bigEndian)
        func list(_ values: [String]) -> String {
            values.count > 16 ? values.prefix(16).joined(separator: " ") + " … (\(values.count) values)" : values.joined(separator: " ")
        }
        switch entry.type {
        case TIFFFieldType.ascii:
            return String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self).trimmingSpaces
        case TIFFFieldType.short, TIFFFieldType.sshort:
            return list(stride(from: 0, to: raw.count - 1, by: 2).compactMap { at in
                reader.u16(at).map { entry.type == TIFFFieldType.short ? "\($0)" : "\(Int16(bitPattern: $0))" }
            })
        case TIFFFieldType.long, TIFFFieldType.slong, TIFFFieldType.ifd:
            return list(stride(from: 0, to: raw.count - 3, by: 4).compactMap { at in
                reader.u32(at).map { entry.type == TIFFFieldType.slong ? "\(Int32(bitPattern: $0))" : "\($0)" }
            })
        case TIFFFieldType.rational, TIFFFieldType.srational:
            return list(stride(from: 0, to: raw.count - 7, by: 8).compactMap { at in
                guard let n = reader.u32(at), let d = reader.u32(at + 4) else { return nil }
                return entry.type == TIFFFieldType.rational ? "\(n)/\(d)" : "\(Int32(bitPattern: n))/\(Int32(bitPattern: d))"
            })
        case TIFFFieldType.float:
            return list(stride(from: 0, to: raw.count - 3, by: 4).compactMap { reader.u32($0).map { "\(Float(bitPattern: $0))" } })
        case TIFFFieldType.double:
            return list(stride(from: 0, to: raw.count - 7, by: 8).compactMap { reader.u64($0).map { "\(Double(bitPattern: $0))" } })
        default:
            let text = raw.prefix { $0 != 0 }
            if !text.isEmpty, text.allSatisfy({ (0x20...0x7E).contains($0) }), raw.dropFirst(text.count).allSatisfy({ $0 == 0 }) {
                return String(decoding: text, as: UTF8.self).trimmingSpaces
            }
            return raw.count <= 16 ? Hex.string(raw) : "\(raw.count) bytes: " + Hex.string(Array(raw.prefix(8))) + "…"
        }
    }
}

extension String {
    /// The string without spaces at either end.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
