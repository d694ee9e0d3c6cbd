import H2JSupport

/// The append-IFD edit: adds or replaces entries of one IFD without moving any value
/// that is already in the blob.
///
/// A new copy of the IFD's directory is appended at the end of the blob (at an even
/// offset): entries sorted by tag, as TIFF requires; every entry that is not replaced
/// copied verbatim, so its offset still points at the old value; the next-IFD field
/// copied. The new out-of-line values follow it, each at an even offset. Then whatever
/// points at the IFD is pointed at the copy:
///
/// | IFD | pointed at by |
/// |---|---|
/// | IFD0 | the header's offset at byte 4 |
/// | ExifIFD, GPS IFD | IFD0's 0x8769, 0x8825 entry |
/// | InteropIFD | ExifIFD's 0xA005 entry |
/// | IFD1 | IFD0's next-IFD field |
///
/// Where that pointer exists it is patched in place (a single SHORT/LONG/IFD entry, or
/// the next-IFD field). Where the parent must gain it, the parent is edited the same way:
/// a source without an ExifIFD gets a new ExifIFD, then a new copy of IFD0 with the
/// 0x8769 entry, then a new header offset. Old directories stay, unreferenced.
///
/// Invariants: the only existing bytes that change are the repointed pointer (4 bytes of
/// the header or of a next-IFD field, or one 12-byte entry), so maker notes and every
/// other value keep their offsets. The result is re-read with `TIFFReader` and must show
/// the new values in the IFD, or the edit throws. Never traps.
enum TIFFIFDAppender {
    /// How an IFD is reached from its parent.
    private enum Link {
        case header
        case entry(parent: EXIFIFDKind, tag: UInt16)
        case next(parent: EXIFIFDKind)
    }

    private static func link(to kind: EXIFIFDKind) -> Link? {
        switch kind {
        case .ifd0: .header
        case .exif: .entry(parent: .ifd0, tag: EXIFTag.exifIFDPointer)
        case .gps: .entry(parent: .ifd0, tag: EXIFTag.gpsIFDPointer)
        case .interop: .entry(parent: .exif, tag: EXIFTag.interopIFDPointer)
        case .ifd1: .next(parent: .ifd0)
        case .subIFD, .laterIFD: nil
        }
    }

    /// Sets `values` (tag → value) in the first IFD of `kind`, and leaves the entries of
    /// `removing` out of its copy, creating the IFD (and the pointers to it) when there is
    /// none. Pointer and offset tags cannot be removed this way. Returns the edited blob, re-read.
    static func set(_ values: [UInt16: TIFFValue], removing: Set<UInt16> = [], in kind: EXIFIFDKind,
                    of dir: EXIFDirectory) throws(EXIFError) -> EXIFDirectory {
        guard !removing.contains(where: { EXIFTag.pointerTarget($0) != nil || Self.dataOffsetTags.contains($0) }) else {
            throw .ifdNotEditable(ifd: kind)
        }
        var tiff = dir.tiff
        try append(values, removing: removing, in: kind, next: nil, dir: dir, tiff: &tiff)
        let edited = try TIFFReader.read(tiff)
        let reads = values.allSatisfy { tag, value in
            guard let entry = edited.entry(kind, tag) else { return false }
            return entry.type == value.type && entry.count == value.count && edited.rawValue(entry) == value.bytes
        }
        guard reads, removing.allSatisfy({ edited.entry(kind, $0) == nil }) else { throw .editTargetUnreadable(ifd: kind) }
        return edited
    }

    /// Tags whose values locate data blocks: leaving one out would orphan its partner.
    static let dataOffsetTags: Set<UInt16> = [EXIFTag.stripOffsets, EXIFTag.stripByteCounts, EXIFTag.tileOffsets,
                                              EXIFTag.tileByteCounts, EXIFTag.jpegInterchangeFormat,
                                              EXIFTag.jpegInterchangeFormatLength]

    /// Appends the copy of `kind`'s directory to `tiff` (described by `dir`) and points
    /// its parent at it. `next` overrides the copied next-IFD field.
    private static func append(_ values: [UInt16: TIFFValue], removing: Set<UInt16> = [], in kind: EXIFIFDKind, next: UInt32?,
                               dir: EXIFDirectory, tiff: inout [UInt8]) throws(EXIFError) {
        guard let link = link(to: kind) else { throw .ifdNotEditable(ifd: kind) }
        let index = dir.index(of: kind)
        if index == nil {
            // Absent, not merely unread: a pointer that exists but was not followed (the
            // reader's IFD budget) must not be overwritten by a new IFD.
            let pointed: Bool = switch link {
            case .header: true
            case let .entry(parent, tag): dir.ifd(parent)?.entry(tag) != nil
            case let .next(parent): (dir.ifd(parent)?.nextIFDOffset ?? 0) != 0
            }
            if pointed || dir.unreadable.contains(where: { $0.kind == kind }) { throw .editTargetUnreadable(ifd: kind) }
        }
        if let index, case let .entry(parent, _) = link {
            guard let p = dir.ifds[index].parent, p == dir.index(of: parent) else { throw .nonStandardParent(ifd: kind) }
        }
        if let index, case .next = link, dir.ifds[index].parent != 0 { throw .nonStandardParent(ifd: kind) }
        let old = index.map { dir.ifds[$0] }

        let offset = try appendDirectory(old: old, values: values, removing: removing, next: next ?? old?.nextIFDOffset ?? 0,
                                         kind: kind, bigEndian: dir.bigEndian, tiff: &tiff)
        let be = dir.bigEndian
        switch link {
        case .header:
            TIFFPatching.put32(offset, at: 4, in: &tiff, bigEndian: be)
        case let .next(parent):
            if let field = dir.ifd(parent)?.nextPointerOffset {
                TIFFPatching.put32(offset, at: field, in: &tiff, bigEndian: be)
            } else {
                try appendToParent(parent, [:], next: offset, tiff: &tiff)
            }
        case let .entry(parent, tag):
            if let pointer = dir.ifd(parent)?.entry(tag), pointer.count == 1,
               [TIFFFieldType.long, TIFFFieldType.ifd].contains(pointer.type) {
                TIFFPatching.put32(offset, at: pointer.entryOffset + 8, in: &tiff, bigEndian: be)
            } else if let pointer = dir.ifd(parent)?.entry(tag), pointer.count == 1, pointer.type == TIFFFieldType.short {
                TIFFPatching.rewriteEntry(at: pointer.entryOffset, type: TIFFFieldType.long, value: offset,
                                          in: &tiff, bigEndian: be)
            } else {
                // No pointer entry, or one of a shape we do not patch: the parent gains a
                // fresh LONG entry (and is created when missing).
                guard let pointer = TIFFValue.long([offset], bigEndian: be) else { throw .ifdNotEditable(ifd: kind) }
                try appendToParent(parent, [tag: pointer], next: nil, tiff: &tiff)
            }
        }
    }

    /// Edits `parent` in the blob as it is now (re-read: a child was just appended).
    private static func appendToParent(_ parent: EXIFIFDKind, _ values: [UInt16: TIFFValue], next: UInt32?,
                                       tiff: inout [UInt8]) throws(EXIFError) {
        let current = try TIFFReader.read(tiff)
        try append(values, in: parent, next: next, dir: current, tiff: &tiff)
    }

    /// Writes the directory copy and its new values at the (even) end of `tiff`; returns
    /// the directory's offset.
    private static func appendDirectory(old: TIFFIFD?, values: [UInt16: TIFFValue], removing: Set<UInt16>, next: UInt32, kind: EXIFIFDKind,
                                        bigEndian be: Bool, tiff: inout [UInt8]) throws(EXIFError) -> UInt32 {
        // Kept entries by their source offset, new ones by value; stable sort by tag.
        var entries: [(tag: UInt16, source: Int?, value: TIFFValue?)] =
            (old?.entries ?? []).filter { values[$0.tag] == nil && !removing.contains($0.tag) }.map { ($0.tag, $0.entryOffset, nil) }
        entries += values.map { ($0.key, nil, $0.value) }
        entries = entries.enumerated().sorted { ($0.element.tag, $0.offset) < ($1.element.tag, $1.offset) }.map(\.element)
        guard let count = UInt16(exactly: entries.count) else { throw .tooManyEntries(ifd: kind, count: entries.count) }

        let start = tiff.count + tiff.count % 2
        var valueAt = start + 2 + 12 * entries.count + 4
        var valueOffsets: [Int] = []
        for entry in entries {
            guard let value = entry.value, !value.isInline else { valueOffsets.append(0); continue }
            valueOffsets.append(valueAt)
            valueAt += value.bytes.count + value.bytes.count % 2
        }
        guard valueAt <= Int(UInt32.max), let startOffset = UInt32(exactly: start) else {
            throw .tooLargeForOffsets(size: valueAt)
        }

        let source = ByteReader(tiff)
        var out = [UInt8](repeating: 0, count: valueAt - tiff.count)
        let base = tiff.count
        TIFFPatching.put16(count, at: start - base, in: &out, bigEndian: be)
        for (i, entry) in entries.enumerated() {
            let at = start - base + 2 + 12 * i
            if let from = entry.source {
                guard let bytes = source.slice(from, 12) else { throw .editTargetUnreadable(ifd: kind) }
                out.replaceSubrange(at..<(at + 12), with: bytes)
            } else if let value = entry.value {
                TIFFPatching.put16(entry.tag, at: at, in: &out, bigEndian: be)
                TIFFPatching.put16(value.type, at: at + 2, in: &out, bigEndian: be)
                TIFFPatching.put32(value.count, at: at + 4, in: &out, bigEndian: be)
                if value.isInline {
                    out.replaceSubrange((at + 8)..<(at + 8 + value.bytes.count), with: value.bytes)
                } else {
                    let valueOffset = valueOffsets[i]
                    TIFFPatching.put32(UInt32(valueOffset), at: at + 8, in: &out, bigEndian: be)
                    out.replaceSubrange((valueOffset - base)..<(valueOffset - base + value.bytes.count), with: value.bytes)
                }
            }
        }
        TIFFPatching.put32(next, at: start - base + 2 + 12 * entries.count, in: &out, bigEndian: be)
        tiff += out
        return startOffset
    }
}
