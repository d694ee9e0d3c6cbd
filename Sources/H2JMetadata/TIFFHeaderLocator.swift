import H2JJPEG
import H2JSupport

/// Finds the TIFF header (`II*\0` or `MM\0*`) inside a HEIF `Exif` item.
///
/// ISO/IEC 23008-12 says the item is a 4-byte big-endian `exif_tiff_header_offset`
/// followed by the payload, the TIFF header starting that many bytes into the payload
/// (usually 0, or 6 after `Exif\0\0`). Real files disagree: some write 0 and still put
/// `Exif\0\0` first, some count from the start of the item, some embed a whole JPEG APP1
/// header (`FF E1 len Exif\0\0`), some write garbage. So candidates are tried in order of
/// trust, each accepted only when it looks like a real TIFF header whose IFD0 fits.
///
/// Invariant: never traps and does work bounded by `scanWindow`, whatever the input.
package enum TIFFHeaderLocator {
    /// How many leading bytes are searched for `Exif\0\0`, an APP1 marker or a bare header.
    package static let scanWindow = 1024


    /// Offset of the TIFF header in `item`, or nil when there is none.
    ///
    /// Order: the declared offset (from the end of the offset field, then from the item
    /// start); `Exif\0\0` right after the offset field; an embedded APP1 header;
    /// `Exif\0\0` anywhere in the window; any plausible header in the window. If nothing
    /// is plausible, a bare magic number at one of the explicit candidates is accepted so
    /// that the reader can report what is wrong with IFD0.
    package static func locate(in item: [UInt8]) -> Int? {
        let reader = ByteReader(item, bigEndian: true)
        var explicit: [Int] = []
        if let declared = reader.u32(0) {
            let d = Int(declared)
            explicit.append(4 + d)
            explicit.append(d)
        }
        if hasExifSignature(item, at: 4) { explicit.append(10) }
        if let found = explicit.first(where: { isPlausibleTIFFHeader(item, at: $0) }) { return found }

        // One pass over the window collects the remaining candidates.
        var signatures: [Int] = []  // APP1 headers first, then bare `Exif\0\0`
        var bareSignatures: [Int] = []
        var firstPlausible: Int?
        for p in 0..<min(scanWindow, item.count) {
            switch item[p] {
            case 0xFF where reader.u8(p + 1) == 0xE1 && hasExifSignature(item, at: p + 4):
                signatures.append(p + 10)
            case 0x45 where hasExifSignature(item, at: p):
                bareSignatures.append(p + 6)
            case 0x49, 0x4D:
                if firstPlausible == nil, isPlausibleTIFFHeader(item, at: p) { firstPlausible = p }
            default:
                break
            }
        }
        signatures += bareSignatures
        if let found = signatures.first(where: { isPlausibleTIFFHeader(item, at: $0) }) { return found }
        if let firstPlausible { return firstPlausible }
        return (explicit + signatures).first(where: { hasTIFFMagic(item, at: $0) })
    }

    /// True when `bytes` holds `II*\0` or `MM\0*` at `offset`.
    package static func hasTIFFMagic(_ bytes: [UInt8], at offset: Int) -> Bool {
        let r = ByteReader(bytes)
        guard r.contains(offset: offset, length: 4) else { return false }
        let m = (bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
        return m == (0x49, 0x49, 0x2A, 0x00) || m == (0x4D, 0x4D, 0x00, 0x2A)
    }

    /// True when a TIFF header at `offset` has an IFD0 with 1...1000 entries that lie
    /// wholly inside `bytes` and whose first entry has a known field type.
    package static func isPlausibleTIFFHeader(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard hasTIFFMagic(bytes, at: offset) else { return false }
        let r = ByteReader(bytes, bigEndian: bytes[offset] == 0x4D)
        guard let ifd0 = r.u32(offset + 4), ifd0 >= 8 else { return false }
        let (start, overflow) = offset.addingReportingOverflow(Int(ifd0))
        guard !overflow, let n = r.u16(start), (1...1000).contains(n),
              r.contains(offset: start + 2, length: 12 * Int(n)),
              let type = r.u16(start + 4) else { return false }
        return TIFFFieldType.size(of: type) != nil
    }

    private static func hasExifSignature(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset <= bytes.count - JPEGAPPSignature.exif.count else { return false }
        for i in 0..<JPEGAPPSignature.exif.count where bytes[offset + i] != JPEGAPPSignature.exif[i] { return false }
        return true
    }
}
