import H2JSupport

/// Makes the EXIF of a HEIF describe the JPEG we write from it, editing only existing
/// 12-byte IFD entries.
///
/// The decoder has already applied the HEIF's rotation and mirroring, so Orientation
/// must become 1 (upright), and the pixel dimensions must be those of the JPEG.
///
/// Invariants: the blob's length never changes and no IFD or value moves; maker notes
/// hold offsets we cannot interpret, so moving anything could corrupt them. Only the
/// type, count and inline value of entries that already exist are rewritten, always to
/// an inline SHORT or LONG with count 1. A tag that is absent is not added. An old
/// out-of-line value becomes unreferenced but stays where it was.
struct EXIFInPlaceEditor {
    /// The edited TIFF bytes; same length as `directory.tiff`.
    private(set) var tiff: [UInt8]
    /// The structure the edits are based on (offsets stay valid: nothing moves).
    let directory: EXIFDirectory
    /// Offsets of the entries rewritten so far.
    private(set) var rewrittenEntries: [Int] = []

    init(directory: EXIFDirectory) {
        self.directory = directory
        self.tiff = directory.tiff
    }

    /// Sets every Orientation (0x0112) entry in IFD0 and IFD1 to SHORT 1, whatever its
    /// stored type or count. Returns how many entries were rewritten.
    @discardableResult
    mutating func setOrientationUpright() -> Int {
        var patched = 0
        for kind in [EXIFIFDKind.ifd0, .ifd1] {
            guard let ifd = directory.ifd(kind) else { continue }
            for entry in ifd.entries where entry.tag == EXIFTag.orientation {
                if rewrite(entry, type: TIFFFieldType.short, value: 1) { patched += 1 }
            }
        }
        return patched
    }

    /// Sets every ExifIFD ColorSpace (0xA001) entry to SHORT 1, sRGB: the pixels were
    /// converted to it. Returns how many entries were rewritten.
    @discardableResult
    mutating func setColourSpaceSRGB() -> Int {
        guard let ifd = directory.ifd(.exif) else { return 0 }
        return ifd.entries.filter { $0.tag == EXIFTag.colorSpace && rewrite($0, type: TIFFFieldType.short, value: 1) }.count
    }

    /// Sets ExifIFD PixelXDimension/PixelYDimension (0xA002/0xA003) and IFD0
    /// ImageWidth/ImageLength (0x0100/0x0101) to `width`/`height` where present.
    ///
    /// A SHORT entry stays SHORT when the value fits in 16 bits and becomes LONG when it
    /// does not; every other stored type becomes LONG. Returns how many entries changed.
    @discardableResult
    mutating func setPixelDimensions(width: UInt32, height: UInt32) -> Int {
        let targets: [(EXIFIFDKind, UInt16, UInt32)] = [
            (.exif, EXIFTag.pixelXDimension, width), (.exif, EXIFTag.pixelYDimension, height),
            (.ifd0, EXIFTag.imageWidth, width), (.ifd0, EXIFTag.imageLength, height),
        ]
        var patched = 0
        for (kind, tag, value) in targets {
            guard let ifd = directory.ifd(kind) else { continue }
            for entry in ifd.entries where entry.tag == tag {
                let keepShort = entry.type == TIFFFieldType.short && value <= UInt32(UInt16.max)
                if rewrite(entry, type: keepShort ? TIFFFieldType.short : TIFFFieldType.long, value: value) {
                    patched += 1
                }
            }
        }
        return patched
    }

    /// The structure of the edited bytes, re-reading only the rewritten entries.
    ///
    /// Its `ifds` equal those of `TIFFReader.read(tiff)` (the tests check this): only
    /// entries of tags that are neither IFD pointers nor data offsets are rewritten, and
    /// only inside their own IFD's directory, which no other directory overlaps, so every
    /// IFD offset, next pointer and other entry reads back the same. `unreadable` is kept
    /// from before the edits: same IFDs, but its errors describe the input bytes (a
    /// hostile pointer into a patched directory would otherwise report patched counts).
    var editedDirectory: EXIFDirectory {
        let reader = ByteReader(tiff, bigEndian: directory.bigEndian)
        var ifds = directory.ifds
        for (i, ifd) in ifds.enumerated() {
            let span = ifd.directoryRange
            guard rewrittenEntries.contains(where: { span.contains($0) }) else { continue }
            ifds[i] = TIFFIFD(kind: ifd.kind, offset: ifd.offset,
                              entries: ifd.entries.map { entry in
                                  rewrittenEntries.contains(entry.entryOffset)
                                      ? TIFFReader.readEntry(reader, at: entry.entryOffset) : entry
                              },
                              nextPointerOffset: ifd.nextPointerOffset, nextIFDOffset: ifd.nextIFDOffset,
                              parent: ifd.parent)
        }
        return EXIFDirectory(tiff: tiff, bigEndian: directory.bigEndian, ifds: ifds, unreadable: directory.unreadable)
    }

    private mutating func rewrite(_ entry: TIFFEntry, type: UInt16, value: UInt32) -> Bool {
        guard TIFFPatching.rewriteEntry(at: entry.entryOffset, type: type, value: value,
                                        in: &tiff, bigEndian: directory.bigEndian) else { return false }
        rewrittenEntries.append(entry.entryOffset)
        return true
    }
}
