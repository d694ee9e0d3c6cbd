/// An EXIF/TIFF blob taken apart into the pieces its readers reach, to be written again
/// packed together: the re-layout step of `EXIFAPP1Fitter`, and the base of the steps
/// after it (which leave IFD1 or single entries out before packing).
///
/// Pieces: every IFD directory, every out-of-line value, every offset/length data block
/// (JPEG thumbnail, strips, tiles). `packed(cap:)` writes them after the 8-byte header in
/// IFD order (a directory, then its values, then its data blocks) at even offsets, and
/// patches every offset that refers to them: IFD pointer entries (ExifIFD, GPS, Interop,
/// SubIFDs), next-IFD fields, value offsets, JPEGInterchangeFormat, StripOffsets and
/// TileOffsets. A source range referenced twice is written once. Entries keep their
/// order, tag, type, count and value bytes; only offsets change.
///
/// Maker notes: one that `MakerNoteFormat` knows to be self-relative is moved like any
/// other value, byte for byte. Any other maker note may hold offsets from the TIFF header
/// that nothing here can see, so it keeps its offset: its range is reserved and the rest
/// is packed around it (`TIFFSpaceAllocator`).
///
/// `init` refuses (throws) a blob it cannot lay out safely: an unreadable IFD (its
/// pointer would dangle), a value outside the data or of unknown size, data blocks it
/// cannot locate, a pointer or data-offset tag twice in one IFD, a pointer holding more
/// offsets than readers follow. A next-IFD field outside the IFD0 → IFD1 → … chain,
/// which no reader follows, is written as 0.
///
/// Invariants: never traps; `packed(cap:)` computes the size before it allocates and
/// allocates at most `cap` bytes.
struct TIFFLayout {
    /// What an offset written by the layout points at.
    enum Target: Hashable {
        /// The IFD at this index of `source.ifds`.
        case ifd(Int)
        /// A data block: this range of the source.
        case block(Range<Int>)
    }

    /// What becomes of one entry's value.
    enum Field {
        /// The value sits in the entry: its 12 bytes are copied as they are.
        case inline
        /// An out-of-line value that moves: its bytes are copied, the entry gets the new offset.
        case moved(Range<Int>)
        /// An out-of-line value that keeps its offset (a maker note of unknown format).
        case reserved(Range<Int>)
        /// Offsets of IFDs or data blocks, `elementSize` (2 or 4) bytes each: in the entry
        /// when they fit its 4 bytes, else an array written at a new place.
        case offsets([Target], elementSize: Int)
    }

    struct Entry {
        let source: TIFFEntry
        let field: Field
    }

    struct Directory {
        var entries: [Entry]
        /// Index in `source.ifds` of the IFD the next-IFD field points at (nil: 0).
        var next: Int?
    }

    /// The result of packing: the bytes, or the size they would need when over the cap.
    enum Packing: Equatable {
        case packed([UInt8])
        case tooLarge(size: Int)
    }

    let source: EXIFDirectory
    /// Indexed like `source.ifds`; nil for an IFD left out.
    private(set) var directories: [Directory?]

    init(_ dir: EXIFDirectory) throws(EXIFError) {
        if let broken = dir.unreadable.first { throw broken.error }
        source = dir
        var directories: [Directory?] = []
        for (index, ifd) in dir.ifds.enumerated() {
            var structuralTags: [UInt16] = []
            var entries: [Entry] = []
            entries.reserveCapacity(ifd.entries.count)
            for entry in ifd.entries {
                if EXIFTag.pointerTarget(entry.tag) != nil || EXIFTag.lengthsTag(forOffsets: entry.tag) != nil {
                    guard !structuralTags.contains(entry.tag) else {
                        throw .duplicateStructuralTag(ifd: ifd.kind, tag: entry.tag)
                    }
                    structuralTags.append(entry.tag)
                }
                entries.append(Entry(source: entry, field: try Self.field(of: entry, in: ifd, at: index, dir)))
            }
            directories.append(Directory(entries: entries, next: try Self.next(of: ifd, at: index, dir)))
        }
        self.directories = directories
    }

    // MARK: Leaving things out

    /// Leaves out IFD1 and every IFD reached from it; IFD0's next-IFD field becomes 0.
    /// Returns false when there is no IFD1 to leave out.
    mutating func dropIFD1() -> Bool {
        let family = EXIFReferencedBytes.ifd1Family(source)
        guard !family.isEmpty else { return false }
        for index in family { directories[index] = nil }
        directories[0]?.next = nil
        return true
    }

    /// Removes every entry with `tag` from the IFD at `index` of `source.ifds` and
    /// returns them. Pointer and data-offset tags are structure and are never removed.
    @discardableResult
    mutating func remove(tag: UInt16, fromIFD index: Int) -> [TIFFEntry] {
        guard EXIFTag.pointerTarget(tag) == nil, EXIFTag.lengthsTag(forOffsets: tag) == nil,
              directories.indices.contains(index), let directory = directories[index] else { return [] }
        let removed = directory.entries.filter { $0.source.tag == tag }.map(\.source)
        directories[index]?.entries.removeAll { $0.source.tag == tag }
        return removed
    }

    /// Ranges that keep their offsets (maker notes of unknown format still included).
    var reservedRanges: [Range<Int>] {
        directories.compactMap { $0 }.flatMap(\.entries).compactMap {
            if case let .reserved(range) = $0.field { range } else { nil }
        }
    }

    // MARK: Packing

    /// Where every piece goes.
    private struct Placement {
        var directories: [Int: Int] = [:]
        var copies: [Range<Int>: Int] = [:]
        /// Offset arrays too long for their entry, by (IFD index, entry position).
        var arrays: [[Int]: Int] = [:]
        var size = 8
    }

    /// The packed blob, or its size when that is over `cap`. Throws when an offset does
    /// not fit the SHORT array that must hold it.
    func packed(cap: Int) throws(EXIFError) -> Packing {
        // Overflow needs a hostile blob; any size that large is simply too large.
        guard let placement = place() else { return .tooLarge(size: Int(UInt32.max)) }
        guard placement.size <= cap, placement.size <= Int(UInt32.max) else { return .tooLarge(size: placement.size) }
        let be = source.bigEndian, tiff = source.tiff
        var out = [UInt8](repeating: 0, count: placement.size)
        out.replaceSubrange(0..<4, with: tiff[0..<4])
        TIFFPatching.put32(UInt32(placement.directories[0] ?? 0), at: 4, in: &out, bigEndian: be)
        for range in reservedRanges { out.replaceSubrange(range, with: tiff[range]) }
        for (range, at) in placement.copies { out.replaceSubrange(at..<(at + range.count), with: tiff[range]) }

        func offset(_ target: Target) -> Int {
            switch target {
            case let .ifd(index): placement.directories[index] ?? 0
            case let .block(range): placement.copies[range] ?? 0
            }
        }
        for (index, directory) in directories.enumerated() {
            guard let directory, let at = placement.directories[index] else { continue }
            TIFFPatching.put16(UInt16(truncatingIfNeeded: directory.entries.count), at: at, in: &out, bigEndian: be)
            for (position, entry) in directory.entries.enumerated() {
                let e = at + 2 + 12 * position
                out.replaceSubrange(e..<(e + 12), with: tiff[entry.source.entryOffset..<(entry.source.entryOffset + 12)])
                switch entry.field {
                case .inline, .reserved:
                    break
                case let .moved(range):
                    TIFFPatching.put32(UInt32(placement.copies[range] ?? 0), at: e + 8, in: &out, bigEndian: be)
                case let .offsets(targets, size):
                    let values = targets.map(offset)
                    if size == 2, let tooLarge = values.first(where: { $0 > Int(UInt16.max) }) {
                        // A single SHORT offset becomes a LONG; a SHORT array cannot grow.
                        guard values.count == 1 else {
                            throw .offsetTooLargeForShort(ifd: source.ifds[index].kind, tag: entry.source.tag, offset: tooLarge)
                        }
                        TIFFPatching.rewriteEntry(at: e, type: TIFFFieldType.long, value: UInt32(tooLarge), in: &out, bigEndian: be)
                        continue
                    }
                    var valuesAt = e + 8
                    if let array = placement.arrays[[index, position]] {
                        TIFFPatching.put32(UInt32(array), at: e + 8, in: &out, bigEndian: be)
                        valuesAt = array
                    } else {
                        TIFFPatching.put32(0, at: e + 8, in: &out, bigEndian: be)
                    }
                    for (i, value) in values.enumerated() {
                        if size == 2 {
                            TIFFPatching.put16(UInt16(value), at: valuesAt + 2 * i, in: &out, bigEndian: be)
                        } else {
                            TIFFPatching.put32(UInt32(value), at: valuesAt + 4 * i, in: &out, bigEndian: be)
                        }
                    }
                }
            }
            let next = directory.next.flatMap { placement.directories[$0] } ?? 0
            TIFFPatching.put32(UInt32(next), at: at + 2 + 12 * directory.entries.count, in: &out, bigEndian: be)
        }
        return .packed(out)
    }

    /// Offsets for every piece, in IFD order; nil when the arithmetic would overflow.
    private func place() -> Placement? {
        var allocator = TIFFSpaceAllocator(reserved: reservedRanges)
        var placement = Placement()
        func copy(_ range: Range<Int>) -> Bool {
            guard placement.copies[range] == nil else { return true }
            guard let at = allocator.place(range.count) else { return false }
            placement.copies[range] = at
            return true
        }
        for (index, directory) in directories.enumerated() {
            guard let directory else { continue }
            guard let at = allocator.place(2 + 12 * directory.entries.count + 4) else { return nil }
            placement.directories[index] = at
            for (position, entry) in directory.entries.enumerated() {
                switch entry.field {
                case .inline, .reserved:
                    break
                case let .moved(range):
                    guard copy(range) else { return nil }
                case let .offsets(targets, size):
                    if targets.count * size > 4 {
                        guard let array = allocator.place(targets.count * size) else { return nil }
                        placement.arrays[[index, position]] = array
                    }
                    for case let .block(range) in targets {
                        guard copy(range) else { return nil }
                    }
                }
            }
        }
        placement.size = allocator.end
        return placement
    }

    // MARK: Reading the source

    /// How the entry's value is carried over.
    private static func field(of entry: TIFFEntry, in ifd: TIFFIFD, at index: Int,
                              _ dir: EXIFDirectory) throws(EXIFError) -> Field {
        let integerTypes = [TIFFFieldType.short, TIFFFieldType.long]
        if let target = EXIFTag.pointerTarget(entry.tag) {
            guard integerTypes.contains(entry.type) || entry.type == TIFFFieldType.ifd else {
                throw .badPointer(ifd: ifd.kind, tag: entry.tag, type: entry.type, count: entry.count)
            }
            let most = target == .subIFD ? TIFFReader.maxSubIFDsPerIFD : 1
            guard entry.count >= 1, entry.count <= most else {
                throw .unsupportedPointer(ifd: ifd.kind, tag: entry.tag, count: entry.count)
            }
            guard let offsets = dir.unsignedIntegers(entry), offsets.count == Int(entry.count) else {
                throw .badPointer(ifd: ifd.kind, tag: entry.tag, type: entry.type, count: entry.count)
            }
            var children: [Target] = []
            for offset in offsets {
                guard let child = dir.ifds.firstIndex(where: {
                    $0.parent == index && $0.offset == Int(offset) && $0.kind == target
                }) else { throw .tooManyIFDs(ifd: target, offset: Int(offset)) }
                children.append(.ifd(child))
            }
            return .offsets(children, elementSize: entry.type == TIFFFieldType.short ? 2 : 4)
        }
        if let lengthsTag = EXIFTag.lengthsTag(forOffsets: entry.tag) {
            guard integerTypes.contains(entry.type), let lengthsEntry = ifd.entry(lengthsTag),
                  integerTypes.contains(lengthsEntry.type),
                  let offsets = dir.unsignedIntegers(entry), let lengths = dir.unsignedIntegers(lengthsEntry),
                  offsets.count == lengths.count else { throw .unplaceableData(ifd: ifd.kind, tag: entry.tag) }
            var blocks: [Target] = []
            for (start, length) in zip(offsets, lengths) {
                guard let block = EXIFReferencedBytes.inside(start: Int(start), length: Int(length), size: dir.tiff.count)
                else { throw .unplaceableData(ifd: ifd.kind, tag: entry.tag) }
                blocks.append(.block(block))
            }
            return .offsets(blocks, elementSize: entry.type == TIFFFieldType.short ? 2 : 4)
        }
        guard let length = entry.byteLength else {
            throw .unplaceableValue(ifd: ifd.kind, tag: entry.tag, type: entry.type, count: entry.count)
        }
        if length <= 4 { return .inline }
        guard let range = entry.valueRange else {
            throw .unplaceableValue(ifd: ifd.kind, tag: entry.tag, type: entry.type, count: entry.count)
        }
        if entry.tag == EXIFTag.makerNote, MakerNoteFormat.movableVendor(dir.tiff[range]) == nil {
            // Kept in place, so it must not overlap the header written anew.
            guard range.lowerBound >= 8 else {
                throw .unplaceableValue(ifd: ifd.kind, tag: entry.tag, type: entry.type, count: entry.count)
            }
            return .reserved(range)
        }
        return .moved(range)
    }

    /// The IFD the next-IFD field leads to, for the fields readers follow (IFD0 → IFD1
    /// → IFD2+); nil (written as 0) for the others.
    private static func next(of ifd: TIFFIFD, at index: Int, _ dir: EXIFDirectory) throws(EXIFError) -> Int? {
        guard [.ifd0, .ifd1, .laterIFD].contains(ifd.kind), ifd.nextIFDOffset != 0 else { return nil }
        guard let next = dir.ifds.firstIndex(where: {
            $0.parent == index && $0.offset == Int(ifd.nextIFDOffset) && [.ifd1, .laterIFD].contains($0.kind)
        }) else { throw .tooManyIFDs(ifd: ifd.kind == .ifd0 ? .ifd1 : .laterIFD, offset: Int(ifd.nextIFDOffset)) }
        return next
    }
}
