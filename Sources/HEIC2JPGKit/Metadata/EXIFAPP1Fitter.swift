/// Shrinks an EXIF/TIFF blob so that `Exif\0\0` + TIFF fits in one JPEG APP1 segment.
///
/// A JPEG segment length is 16 bits and counts itself, so an APP1 payload holds at most
/// 65,533 bytes, i.e. 65,527 bytes of TIFF. EXIF is never split across segments.
/// Steps, stopping as soon as the blob fits, each reported in a warning with sizes:
///
/// 1. Trim the bytes after the last referenced byte (`EXIFReferencedBytes`); loses nothing.
/// 2. Relocate IFD1 (the thumbnail directory), its out-of-line values and its JPEG
///    thumbnail down to just after everything else, patching IFD0's next-IFD pointer,
///    IFD1's value offsets and JPEGInterchangeFormat. Only IFD1 may move: only IFD0's
///    next pointer refers to it. Refused when IFD1 points at other IFDs or holds strips.
/// 3. Otherwise drop IFD1 (IFD0 next pointer := 0) and trim again.
/// 4. Still too big: no EXIF at all.
///
/// Invariant: apart from IFD1's bytes in step 2, no byte changes offset; bytes are only
/// removed from the end. Never traps.
enum EXIFAPP1Fitter {
    /// Largest APP1 payload: 65,535 minus the 2-byte length field.
    static let maxPayloadBytes = 65_533
    /// `Exif\0\0`, which precedes the TIFF bytes in an APP1 payload.
    static let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
    /// Largest TIFF blob that fits one APP1.
    static let maxTIFFBytes = maxPayloadBytes - 6

    struct Result: Equatable {
        /// The TIFF bytes to write, or nil when nothing fits.
        var tiff: [UInt8]?
        var warnings: [String]
    }

    /// Fits `dir.tiff` into `limit` TIFF bytes (`limit` is a parameter only for tests).
    static func fit(_ dir: EXIFDirectory, limit: Int = maxTIFFBytes) -> Result {
        let original = dir.tiff
        let payloadLimit = limit + 6
        if original.count <= limit { return Result(tiff: original, warnings: []) }
        var warnings: [String] = []
        let referenced = EXIFReferencedBytes(dir)

        // 1. Trim unreferenced tail.
        let all = referenced.extentOfAll
        var smallest = original.count
        if all < original.count {
            let trimmed = Array(original[..<all])
            smallest = trimmed.count
            if trimmed.count <= limit {
                warnings.append("trimmed \(EXIFText.bytes(original.count - all)) unreferenced bytes from the end of the EXIF "
                    + "(\(EXIFText.bytes(original.count + 6)) → \(EXIFText.bytes(all + 6)) bytes) to fit one APP1")
                return Result(tiff: trimmed, warnings: warnings)
            }
        }

        // 2./3. Relocate or drop IFD1.
        if let ifd1Index = dir.index(of: .ifd1) {
            let ifd1 = dir.ifds[ifd1Index]
            let thumbnail = thumbnailRange(ifd1, in: dir)
            let what = thumbnail.map { "the \(EXIFText.bytes($0.count))-byte EXIF thumbnail" } ?? "IFD1"
            if let moved = relocateIFD1(dir, ifd1Index: ifd1Index, referenced: referenced), moved.tiff.count <= limit,
               moved.tiff.count < smallest {
                warnings.append("moved \(what) from offset \(EXIFText.bytes(moved.from)) to \(EXIFText.bytes(moved.to)) "
                    + "and trimmed unreferenced bytes (\(EXIFText.bytes(original.count + 6)) → "
                    + "\(EXIFText.bytes(moved.tiff.count + 6)) bytes) to fit one APP1")
                return Result(tiff: moved.tiff, warnings: warnings)
            }
            if let dropped = dropIFD1(dir, referenced: referenced) {
                smallest = min(smallest, dropped.count)
                if dropped.count <= limit {
                    warnings.append("dropped \(what) and trimmed unreferenced bytes (\(EXIFText.bytes(original.count + 6)) → "
                        + "\(EXIFText.bytes(dropped.count + 6)) bytes) to fit one APP1")
                    return Result(tiff: dropped, warnings: warnings)
                }
            }
        }

        // 4. Give up.
        var message = "EXIF is \(EXIFText.bytes(original.count + 6)) bytes, over the \(EXIFText.bytes(payloadLimit)) "
            + "a JPEG APP1 holds; dropped it"
        if smallest < original.count {
            message += " (still \(EXIFText.bytes(smallest + 6)) bytes without unreferenced bytes"
                + (dir.index(of: .ifd1) == nil ? ")" : " and the thumbnail)")
        }
        warnings.append(message)
        return Result(tiff: nil, warnings: warnings)
    }

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

    /// Everything but IFD1's family kept in place and trimmed; then each IFD1 piece that
    /// ended past that point (directory, out-of-line values, JPEG thumbnail) appended at
    /// an even offset, with the pointers to it patched. nil when IFD1 cannot be moved
    /// safely: it points at other IFDs, holds strips or tiles, or has a thumbnail pointer
    /// that is not a single inline SHORT/LONG.
    static func relocateIFD1(_ dir: EXIFDirectory, ifd1Index: Int,
                             referenced: EXIFReferencedBytes) -> (tiff: [UInt8], from: Int, to: Int)? {
        let ifd1 = dir.ifds[ifd1Index]
        guard referenced.ifd1Family.count == 1, !dir.unreadable.contains(where: { $0.parent == ifd1Index }),
              ifd1.nextIFDOffset == 0,
              let ifd0Next = dir.ifds.first?.nextPointerOffset,
              !ifd1.entries.contains(where: { EXIFTag.pointerTarget($0.tag) != nil
                  || [EXIFTag.stripOffsets, EXIFTag.tileOffsets].contains($0.tag) })
        else { return nil }

        let thumbEntry = ifd1.entry(EXIFTag.jpegInterchangeFormat)
        var thumb: Range<Int>?
        if let thumbEntry {
            guard thumbEntry.count == 1, thumbEntry.isInline,
                  [TIFFFieldType.short, TIFFFieldType.long].contains(thumbEntry.type),
                  let range = thumbnailRange(ifd1, in: dir) else { return nil }
            thumb = range
        }

        let keep = referenced.extentWithoutIFD1
        guard keep <= dir.tiff.count else { return nil }
        var out = Array(dir.tiff[..<keep])
        let be = dir.bigEndian
        /// Appends `range` of the original at an even offset; returns the new offset.
        func append(_ range: Range<Int>) -> Int {
            if out.count % 2 == 1 { out.append(0) }
            let at = out.count
            out += dir.tiff[range]
            return at
        }

        // The directory.
        var newDir = ifd1.offset
        if ifd1.directoryRange.upperBound > keep {
            newDir = append(ifd1.directoryRange)
        }
        /// Where an IFD1 entry now lives.
        func moved(_ entry: TIFFEntry) -> Int { newDir + (entry.entryOffset - ifd1.offset) }

        // Out-of-line values (a dangling one stays dangling).
        for entry in ifd1.entries where !entry.isInline {
            guard let range = entry.valueRange, range.upperBound > keep else { continue }
            let at = append(range)
            guard let value = UInt32(exactly: at),
                  TIFFPatching.put32(value, at: moved(entry) + 8, in: &out, bigEndian: be) else { return nil }
        }

        // The thumbnail.
        var from = ifd1.offset, to = newDir
        if let thumb, let thumbEntry, thumb.upperBound > keep {
            let at = append(thumb)
            guard let value = UInt32(exactly: at),
                  TIFFPatching.rewriteEntry(at: moved(thumbEntry), type: TIFFFieldType.long, value: value,
                                            in: &out, bigEndian: be) else { return nil }
            from = thumb.lowerBound
            to = at
        }

        if newDir != ifd1.offset {
            guard let value = UInt32(exactly: newDir),
                  TIFFPatching.put32(value, at: ifd0Next, in: &out, bigEndian: be) else { return nil }
        }
        return (out, from, to)
    }
}
