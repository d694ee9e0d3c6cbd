import H2JJPEG
import H2JSupport

/// Shrinks an EXIF/TIFF blob so that `Exif\0\0` + TIFF fits in one JPEG APP1 segment.
///
/// A JPEG segment length is 16 bits and counts itself, so an APP1 payload holds at most
/// 65,533 bytes, i.e. 65,527 bytes of TIFF. EXIF is never split across segments. The
/// compaction ladder runs in this order and stops as soon as the blob fits; every step
/// taken is a per-file warning naming what was moved or dropped, with sizes:
///
/// 1. Trim the bytes after the last referenced byte (`EXIFReferencedBytes`). Loses nothing.
/// 2. Repack (`TIFFLayout`): every IFD, value and data block (thumbnail, strips) packed
///    after the header, offsets patched, so unreferenced bytes anywhere are gone; a maker
///    note of unknown format keeps its offset. Loses nothing.
/// 3. Drop IFD1 (the thumbnail) and its data.
/// 4. Move user text fields to XMP (`EXIFUserField`: UserComment, ImageDescription,
///    Artist, Copyright), largest first, only as many as needed; they come back in
///    `Result.movedToXMP` for the XMP writer.
/// 5. Drop the maker note.
/// 6. Give up: no EXIF.
///
/// When the blob cannot be laid out safely (`TIFFLayout.init` says why, in a warning),
/// steps 2, 4 and 5 are impossible; step 3 then drops IFD1 in place (IFD0's next
/// pointer := 0) and trims, and nothing else moves.
///
/// Invariant: never traps; a returned blob is at most `limit` bytes and is either the
/// input, a prefix of it (steps 1 and in-place 3) or `TIFFLayout`'s packing of it.
enum EXIFAPP1Fitter {
    /// Largest TIFF blob that fits one APP1, after `Exif\0\0`.
    static let maxTIFFBytes = JPEGAPPSignature.maxPayloadBytes - JPEGAPPSignature.exif.count

    struct Result: Equatable {
        /// The TIFF bytes to write, or nil when nothing fits.
        var tiff: [UInt8]?
        var warnings: [Warning]
        /// User fields taken out of the EXIF (step 4), for the XMP packet.
        var movedToXMP: [XMPProperty] = []
    }

    /// Fits `dir.tiff` into `limit` TIFF bytes (`limit` is a parameter only for tests).
    static func fit(_ dir: EXIFDirectory, limit: Int = maxTIFFBytes) -> Result {
        let original = dir.tiff
        if original.count <= limit { return Result(tiff: original, warnings: []) }
        let referenced = EXIFReferencedBytes(dir)

        // 1. Trim the unreferenced tail.
        let all = referenced.extentOfAll
        if all <= limit {
            return Result(tiff: Array(original[..<all]), warnings: [
                Warning(.exifTrimmed, "trimmed \(EXIFText.bytes(original.count - all)) unreferenced bytes from the end of the EXIF "
                    + "(\(payload(original.count)) → \(payload(all)) bytes) to fit one APP1"),
            ])
        }
        // 2.–5. on the laid-out blob.
        do throws(EXIFError) {
            return try climb(TIFFLayout(dir), limit: limit)
        } catch {
            return fitInPlace(dir, referenced: referenced, limit: limit,
                              note: Warning(.exifNotRepackable, "EXIF could not be repacked: \(error.description); only trimming it and dropping its thumbnail were tried"))
        }
    }

    /// Steps 2 to 5 and giving up. Throws when the layout cannot be packed after all (an
    /// offset too large for a SHORT array).
    private static func climb(_ start: TIFFLayout, limit: Int) throws(EXIFError) -> Result {
        var layout = start
        let dir = layout.source
        var size = dir.tiff.count
        var warnings: [Warning] = []
        var moved: [XMPProperty] = []
        var taken: [String] = []  // for the give-up message

        /// Packs the layout as it is now and records the step; the bytes when they fit.
        /// Steps that move or drop data always warn; the repack (`dropsData` false) only
        /// when it fits or saves bytes, as one that changes no size says nothing new.
        func step(_ code: Warning.Code, _ what: String, _ short: String, dropsData: Bool = true) throws(EXIFError) -> [UInt8]? {
            let packing = try layout.packed(cap: limit)
            let newSize: Int
            var fitted: [UInt8]?
            switch packing {
            case let .packed(bytes): newSize = bytes.count; fitted = bytes
            case let .tooLarge(tooLarge): newSize = tooLarge
            }
            if dropsData || fitted != nil || newSize < size {
                warnings.append(Warning(code, "\(what) to fit one APP1 (\(payload(size)) → \(payload(newSize)) bytes)"))
            }
            taken.append(short)
            size = newSize
            return fitted
        }

        // 2. Repack.
        if let fitted = try step(.exifRepacked, "repacked the EXIF (\(repackDetails(dir, layout)))", "repacking it", dropsData: false) {
            return Result(tiff: fitted, warnings: warnings)
        }
        // 3. Drop IFD1.
        if layout.dropIFD1(), let fitted = try step(.exifThumbnailDropped, "dropped \(thumbnailName(dir))", "dropping the thumbnail") {
            return Result(tiff: fitted, warnings: warnings)
        }
        // 4. Move user fields to XMP, largest first.
        for (field, index, entry, carried) in userFields(dir) {
            layout.remove(tag: field.tag, fromIFD: index)
            let bytes = "\(EXIFText.bytes(entry.byteLength ?? 0))-byte EXIF \(field.name)"
            let (code, what): (Warning.Code, String)
            switch carried {
            case let .property(property):
                moved.append(property)
                (code, what) = (.exifMovedToXMP, "moved the \(bytes) to XMP (\(property.qualifiedName))")
            case .nothing:
                (code, what) = (.exifFieldDropped, "dropped the empty \(bytes)")
            }
            if let fitted = try step(code, what, "moving \(field.name) to XMP") {
                return Result(tiff: fitted, warnings: warnings, movedToXMP: moved)
            }
        }
        // 5. Drop the maker note.
        var makerNoteBytes = 0
        for index in dir.ifds.indices {
            for entry in layout.remove(tag: EXIFTag.makerNote, fromIFD: index) { makerNoteBytes += entry.byteLength ?? 0 }
        }
        if makerNoteBytes > 0, let fitted = try step(.exifMakerNoteDropped, "dropped the \(EXIFText.bytes(makerNoteBytes))-byte maker note",
                                                     "dropping the maker note") {
            return Result(tiff: fitted, warnings: warnings, movedToXMP: moved)
        }
        // 6. Give up.
        return Result(tiff: nil, warnings: [
            Warning(.exifDropped, "EXIF is \(payload(dir.tiff.count)) bytes, over the \(payload(limit)) a JPEG APP1 holds; dropped it "
                + "(still \(payload(size)) bytes after \(taken.joined(separator: ", ")))"),
        ])
    }

    /// The repack warning's details: what moved, and what stayed put.
    private static func repackDetails(_ dir: EXIFDirectory, _ layout: TIFFLayout) -> String {
        let hasThumbnail = dir.ifd(.ifd1).flatMap { thumbnailRange($0, in: dir) } != nil
        var details = (hasThumbnail ? "IFDs, values and the thumbnail" : "IFDs and values")
            + " moved next to each other, unreferenced bytes dropped"
        if let note = dir.entry(.exif, EXIFTag.makerNote), let range = note.valueRange, range.count > 4 {
            if let vendor = MakerNoteFormat.movableVendor(dir.tiff[range]) {
                details += "; the \(vendor) maker note moved unchanged"
            } else if layout.reservedRanges.contains(range) {
                details += "; the \(EXIFText.bytes(range.count))-byte maker note kept at offset \(EXIFText.bytes(range.lowerBound)), "
                    + "as its offsets may count from the EXIF start"
            }
        }
        return details
    }

    /// "the 13,244-byte EXIF thumbnail", or "IFD1" when it has no JPEG thumbnail.
    private static func thumbnailName(_ dir: EXIFDirectory) -> String {
        guard let ifd1 = dir.ifd(.ifd1), let thumbnail = thumbnailRange(ifd1, in: dir) else { return "IFD1" }
        return "the \(EXIFText.bytes(thumbnail.count))-byte EXIF thumbnail"
    }

    /// The user fields present, decodable, largest first (ties in `EXIFUserField.all` order).
    private static func userFields(_ dir: EXIFDirectory)
        -> [(field: EXIFUserField, index: Int, entry: TIFFEntry, carried: EXIFUserField.Carried)] {
        let found = EXIFUserField.all.compactMap { field -> (EXIFUserField, Int, TIFFEntry, EXIFUserField.Carried)? in
            guard let index = dir.index(of: field.ifd), let entry = dir.ifds[index].entry(field.tag),
                  let carried = field.carried(entry, in: dir) else { return nil }
            return (field, index, entry, carried)
        }
        return found.enumerated().sorted {
            ($0.element.2.byteLength ?? 0, -$0.offset) > ($1.element.2.byteLength ?? 0, -$1.offset)
        }.map(\.element)
    }

    /// `dir`'s TIFF without IFD1 and its data: repacked (`TIFFLayout`), or, when it cannot
    /// be laid out, cut in place (IFD0's next pointer 0, trimmed); nil when neither works.
    static func withoutThumbnail(_ dir: EXIFDirectory) -> [UInt8]? {
        if var layout = try? TIFFLayout(dir), layout.dropIFD1(), case .packed(let bytes)? = try? layout.packed(cap: Int(UInt32.max)) {
            return bytes
        }
        return dropIFD1(dir, referenced: EXIFReferencedBytes(dir))
    }

    /// Without a layout: drop IFD1 in place and trim, or give up. `note` says why.
    private static func fitInPlace(_ dir: EXIFDirectory, referenced: EXIFReferencedBytes, limit: Int,
                                   note: Warning) -> Result {
        let original = dir.tiff
        var smallest = min(original.count, referenced.extentOfAll)
        if dir.index(of: .ifd1) != nil, let dropped = dropIFD1(dir, referenced: referenced) {
            smallest = min(smallest, dropped.count)
            if dropped.count <= limit {
                return Result(tiff: dropped, warnings: [note,
                    Warning(.exifThumbnailDropped, "dropped \(thumbnailName(dir)) and trimmed unreferenced bytes "
                        + "(\(payload(original.count)) → \(payload(dropped.count)) bytes) to fit one APP1")])
            }
        }
        var message = "EXIF is \(payload(original.count)) bytes, over the \(payload(limit)) a JPEG APP1 holds; dropped it"
        if smallest < original.count {
            message += " (still \(payload(smallest)) bytes without unreferenced bytes"
                + (dir.index(of: .ifd1) == nil ? ")" : " and the thumbnail)")
        }
        return Result(tiff: nil, warnings: [note, Warning(.exifDropped, message)])
    }

    /// A TIFF size as an APP1 payload size (with `Exif\0\0`), formatted.
    private static func payload(_ tiffBytes: Int) -> String { EXIFText.bytes(tiffBytes + 6) }

    /// The JPEG thumbnail's bytes (JPEGInterchangeFormat/Length), when wholly inside the data.
    static func thumbnailRange(_ ifd1: TIFFIFD, in dir: EXIFDirectory) -> Range<Int>? {
        guard let offsetEntry = ifd1.entry(EXIFTag.jpegInterchangeFormat),
              let lengthEntry = ifd1.entry(EXIFTag.jpegInterchangeFormatLength),
              let start = dir.unsignedIntegers(offsetEntry)?.first.map({ Int($0) }),
              let length = dir.unsignedIntegers(lengthEntry)?.first.map({ Int($0) }),
              length > 0, ByteReader(dir.tiff).contains(offset: start, length: length) else { return nil }
        return start..<(start + length)
    }

    /// IFD0 with next pointer 0, trimmed to the last byte anything but IFD1's family uses.
    static func dropIFD1(_ dir: EXIFDirectory, referenced: EXIFReferencedBytes) -> [UInt8]? {
        guard let next = dir.ifds.first?.nextPointerOffset else { return nil }
        var tiff = dir.tiff
        guard TIFFPatching.put32(0, at: next, in: &tiff, bigEndian: dir.bigEndian) else { return nil }
        let end = referenced.extentWithoutIFD1
        return Array(tiff[..<min(end, tiff.count)])
    }
}
