import H2JSupport

/// The headroom of an Apple HDR gain map (`urn:com:apple:photo:2020:aux:hdrgainmap`):
/// how much brighter than SDR white the HDR rendition may go, as a linear factor.
///
/// Newer iPhones store it as XMP `HDRGainMap:HDRGainMapHeadroom` on the gain-map item,
/// which wins. Otherwise it comes from the primary's Apple maker note, tags 33 (0x0021)
/// and 48 (0x0030), by the rule Apple's and Skia's, libavif's and libultrahdr's readers
/// use (see `stops`). A missing tag 48 counts as 0.
package enum AppleHDRHeadroom {
    /// Where the value was found, for reports.
    package enum Origin: String, Sendable {
        case xmp = "XMP HDRGainMapHeadroom"
        case makerNote = "maker note tags 33 and 48"
    }

    /// The headroom (≥ 1), or nil when neither the gain map's XMP nor the primary's EXIF
    /// (TIFF bytes) says it.
    package static func headroom(gainMapXMP: [UInt8]?, primaryEXIF: [UInt8]?) -> (value: Double, origin: Origin)? {
        if let xmp = gainMapXMP, let value = xmpHeadroom(xmp), value >= 1 { return (value, .xmp) }
        guard let tiff = primaryEXIF, let (m33, m48) = makerNoteTags(tiff) else { return nil }
        return (Math.exp2(max(stops(m33: m33, m48: m48), 0)), .makerNote)
    }

    /// The same from the primary's HEIF `Exif` item (its 4-byte offset, then the TIFF bytes).
    package static func headroom(gainMapXMP: [UInt8]?, primaryExifItem: [UInt8]?) -> (value: Double, origin: Origin)? {
        headroom(gainMapXMP: gainMapXMP, primaryEXIF: primaryExifItem.flatMap { try? EXIFDirectory(heifExifItem: $0).tiff })
    }

    /// Stops of headroom from maker-note tags 33 and 48.
    static func stops(m33: Double, m48: Double) -> Double {
        if m33 < 1 {
            return m48 <= 0.01 ? -20 * m48 + 1.8 : -0.101 * m48 + 1.601
        }
        return m48 <= 0.01 ? -70 * m48 + 3 : -0.303 * m48 + 2.303
    }

    /// `HDRGainMap:HDRGainMapHeadroom` as an attribute or an element.
    static func xmpHeadroom(_ packet: [UInt8]) -> Double? {
        XMPSimpleValue.number("HDRGainMap:HDRGainMapHeadroom", in: packet)
    }

    /// Tags 33 and 48 of the Apple maker note in the EXIF IFD's MakerNote (0x927C): the
    /// note is `Apple iOS\0`, 2 bytes, `MM`, then an IFD at byte 14 whose offsets count
    /// from the note's first byte. Both are signed rationals; nil without tag 33.
    static func makerNoteTags(_ tiff: [UInt8]) -> (Double, Double)? {
        guard let directory = try? EXIFDirectory(tiff: tiff), let note = directory.rawValue(.exif, 0x927C),
              note.starts(with: Array("Apple iOS\0".utf8)) else { return nil }
        let reader = ByteReader(note)
        guard reader.u16(12) == 0x4D4D, let count = reader.u16(14) else { return nil }
        func rational(_ tag: UInt16) -> Double? {
            for index in 0..<Int(count) {
                let entry = 16 + 12 * index
                guard let entryTag = reader.u16(entry) else { return nil }
                guard entryTag == tag, reader.u16(entry + 2) == 10, let offset = reader.u32(entry + 8),
                      let numerator = reader.u32(Int(offset)), let denominator = reader.u32(Int(offset) + 4),
                      denominator != 0 else { continue }
                return Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
            }
            return nil
        }
        guard let m33 = rational(0x0021) else { return nil }
        return (m33, rational(0x0030) ?? 0)
    }
}
