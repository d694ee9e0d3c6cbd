/// `--strip-gps` for EXIF: the GPS IFD goes, and its data with it.
///
/// The GPSInfo entry (0x8825) leaves IFD0, whose entry array closes up in place: the
/// entries after it and the next-IFD link move 12 bytes up, and the 12 bytes freed at the
/// end are zeroed. The GPS IFD and every value it points to are overwritten with zeros,
/// so the coordinates are gone from the bytes, not merely unlinked; bytes another IFD
/// also references are left alone. Nothing else moves, so maker-note offsets stay valid.
enum EXIFGPSStripper {
    /// The directory without GPS, re-read from the edited bytes; nil when there is no
    /// GPS pointer in IFD0 (nothing to strip) or the edit could not be re-read.
    static func strip(_ directory: EXIFDirectory) -> EXIFDirectory? {
        guard let ifd0 = directory.ifd(.ifd0), let pointer = ifd0.entry(EXIFTag.gpsIFDPointer) else { return nil }
        var tiff = directory.tiff
        // 1. Zero what only the GPS IFD (and anything below it) references.
        var gpsFamily: Set<Int> = []
        for (index, ifd) in directory.ifds.enumerated()
        where ifd.kind == .gps || ifd.parent.map(gpsFamily.contains) == true {
            gpsFamily.insert(index)
        }
        let kept = directory.ifds.indices.filter { !gpsFamily.contains($0) }
            .flatMap { EXIFReferencedBytes.ranges(of: directory.ifds[$0], in: directory) }
        for index in gpsFamily {
            for range in EXIFReferencedBytes.ranges(of: directory.ifds[index], in: directory) {
                for offset in range where !kept.contains(where: { $0.contains(offset) }) { tiff[offset] = 0 }
            }
        }
        // 2. Close up IFD0's entries over the GPSInfo entry.
        let end = ifd0.directoryRange.upperBound
        let start = pointer.entryOffset
        guard start >= ifd0.offset + 2, start + 12 <= end, let count = UInt16(exactly: ifd0.entries.count - 1) else { return nil }
        tiff.replaceSubrange(start..<(end - 12), with: tiff[(start + 12)..<end])
        tiff.replaceSubrange((end - 12)..<end, with: repeatElement(0, count: 12))
        let countBytes: [UInt8] = directory.bigEndian ? [UInt8(count >> 8), UInt8(count & 0xFF)] : [UInt8(count & 0xFF), UInt8(count >> 8)]
        tiff.replaceSubrange(ifd0.offset..<(ifd0.offset + 2), with: countBytes)
        return try? TIFFReader.read(tiff)
    }
}
