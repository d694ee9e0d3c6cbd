/// Reads the samples of one stored stream (a tile, or one component of a tile) in
/// order: bits most significant first, components padded to their alignment, or packed
/// into blocks (`UncompressedFormat.blockSize`), with the pixel, row and tile padding
/// of ISO/IEC 23001-17 §5.2.2. Without bytes it only counts: that is how a row's size is
/// learnt, by the very code that reads it.
///
/// Invariant: never traps. Reading past the bytes throws; positions are bounded by the
/// sizes the layout computed with overflow checks before any stream is read.
struct SampleReader {
    private let bytes: ArraySlice<UInt8>?
    private let format: UncompressedFormat
    /// Position in bits from the stream's start.
    private(set) var bit = 0
    private var rowStart = 0, pixelStart = 0

    /// A reader of `bytes`, or a counter when nil.
    init(_ bytes: ArraySlice<UInt8>?, format: UncompressedFormat) {
        self.bytes = bytes
        self.format = format
    }

    /// Bytes from the start, the current byte counted when partly read.
    var byteOffset: Int { (bit + 7) >> 3 }

    /// `count` (≤ 32) bits as an unsigned value, most significant first.
    private mutating func bits(_ count: Int) throws(UncompressedError) -> UInt32 {
        defer { bit += count }
        guard let bytes else { return 0 }
        guard bit + count <= bytes.count * 8 else { throw .malformed("the image data ends inside a sample") }
        var value: UInt32 = 0
        var position = bit, left = count
        while left > 0 {
            let byte = UInt32(bytes[bytes.startIndex + position >> 3])
            let offset = position & 7, take = min(8 - offset, left)
            value = value << take | (byte >> (8 - offset - take)) & ((1 << take) - 1)
            position += take
            left -= take
        }
        return value
    }

    /// `count` whole bytes as an integer, little-endian when asked.
    private mutating func integer(bytes count: Int, littleEndian: Bool) throws(UncompressedError) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<count {
            let byte = UInt64(try bits(8))
            value = littleEndian ? value | byte << (8 * index) : value << 8 | byte
        }
        return value
    }

    mutating func alignToByte() { bit = (bit + 7) & ~7 }

    private mutating func skip(bytes count: Int) throws(UncompressedError) {
        alignToByte()
        bit += count * 8
        if let bytes, bit > bytes.count * 8 { throw .malformed("the image data ends inside its padding") }
    }

    /// Pads to a multiple of `alignment` bytes counted from `start` (0: no padding).
    private mutating func pad(from start: Int, to alignment: Int) throws(UncompressedError) {
        alignToByte()
        guard alignment > 0 else { return }
        let used = byteOffset - start, residue = used % alignment
        if residue != 0 { try skip(bytes: alignment - residue) }
    }

    mutating func startRow() {
        alignToByte()
        rowStart = byteOffset
    }

    /// A row ends on a byte, padded to `rowAlignSize`.
    mutating func endRow() throws(UncompressedError) { try pad(from: rowStart, to: format.rowAlignSize) }

    /// A stream (tile, or component of a tile) ends padded to `tileAlignSize` from `start`.
    mutating func endTile(from start: Int) throws(UncompressedError) { try pad(from: start, to: format.tileAlignSize) }

    mutating func startPixel() {
        if format.pixelSize > 0 || format.blockSize > 0 { alignToByte() }
        pixelStart = byteOffset
    }

    /// A pixel (or multi-Y group) takes `pixelSize` bytes when given.
    mutating func endPixel() throws(UncompressedError) {
        guard format.pixelSize > 0 else { return }
        alignToByte()
        let used = byteOffset - pixelStart
        guard used <= format.pixelSize else {
            throw .malformed("a pixel takes \(used) bytes, more than its 'pixel_size' of \(format.pixelSize)")
        }
        try skip(bytes: format.pixelSize - used)
    }

    /// The samples of `group` (indices into `format.components`) stored together: one
    /// sample, a pixel, a multi-Y group or a Cb/Cr pair. Packed bit after bit (each padded
    /// to its alignment), or filled into blocks: a block takes the group's next samples
    /// while they fit, never a later group's; its padding lies at the top or, with
    /// `blockPadLSB`, the bottom; the first sample sits highest or, with `blockReversed`,
    /// lowest; its bytes are big-endian or, with `blockLittleEndian`, little-endian.
    mutating func read(_ group: [Int], into values: inout [UInt32]) throws(UncompressedError) {
        values.removeAll(keepingCapacity: true)
        let components = format.components
        guard format.blockSize > 0 else {
            for index in group {
                let component = components[index]
                let mask = UInt32((1 << component.bitDepth) - 1)
                if component.alignSize > 0 {
                    alignToByte()
                    let value = try integer(bytes: component.alignSize, littleEndian: format.componentsLittleEndian)
                    values.append(UInt32(truncatingIfNeeded: value) & mask)
                } else if format.componentsLittleEndian && component.bitDepth > 8 {
                    // Whole bytes (checked by the format), on a byte boundary.
                    guard bit & 7 == 0 else { throw .unsupported("a little-endian sample that does not start on a byte") }
                    values.append(UInt32(try integer(bytes: component.bitDepth / 8, littleEndian: true)) & mask)
                } else {
                    values.append(try bits(component.bitDepth))
                }
            }
            return
        }
        alignToByte()
        let blockBits = format.blockSize * 8
        var start = 0
        while start < group.count {
            // The samples this block holds.
            var end = start, used = 0
            while end < group.count, used + components[group[end]].bitDepth <= blockBits {
                used += components[group[end]].bitDepth
                end += 1
            }
            guard end > start else { throw .malformed("a sample does not fit its block") }
            let block = try integer(bytes: format.blockSize, littleEndian: format.blockLittleEndian)
            var shift = format.blockPadLSB ? blockBits - used : 0
            // Lowest first: the last sample, or the first when reversed.
            let order = format.blockReversed ? Array(start..<end) : (start..<end).reversed()
            var found = [UInt32](repeating: 0, count: end - start)
            for position in order {
                let depth = components[group[position]].bitDepth
                found[position - start] = UInt32(truncatingIfNeeded: block >> UInt64(shift)) & UInt32((1 << depth) - 1)
                shift += depth
            }
            values += found
            start = end
        }
    }
}
