import H2JSupport

/// Generic compression of an uncompressed image's data (ISO/IEC 23001-17 Amd 2): the
/// `cmpC` box names the method and what one compressed unit is; the optional `icef` box
/// lists the units (offset and size in the item's data).
///
/// Invariant: `init` never traps; `units` lie inside the item's data (`units(dataSize:)`
/// checks each against it before any is read).
package struct GenericCompression: Equatable, Sendable {
    package enum Method: String, Sendable {
        /// RFC 1951 raw deflate.
        case deflate = "defl"
        /// RFC 1950 zlib stream.
        case zlib
        /// RFC 7932 Brotli.
        case brotli = "brot"
    }

    /// What one compressed unit covers (`cmpC` compressed_unit_type).
    package enum UnitType: Int, Sendable {
        case fullItem = 0, image, tile, row, pixel
    }

    package let method: Method
    package let unitType: UnitType
    /// From `icef`, in order; nil when there is none (the whole item is one unit).
    package let units: [Range<Int>]?

    /// Reads `cmpC` (FullBox payload) and `icef` (FullBox payload, when present).
    package init(cmpC: [UInt8], icef: [UInt8]?) throws(UncompressedError) {
        let reader = ByteReader(cmpC)
        guard reader.u8(0) == 0, let method = reader.fourCC(4), let unit = reader.u8(8) else {
            throw .malformed("'cmpC' box is cut short or of an unknown version")
        }
        guard let known = Method(rawValue: method) else {
            throw .unsupported("generic compression '\(method)' (deflate, zlib and Brotli are decoded)")
        }
        guard let unitType = UnitType(rawValue: Int(unit)) else { throw .malformed("'cmpC' compressed unit type \(unit)") }
        self.method = known
        self.unitType = unitType
        units = try icef.map { (payload) throws(UncompressedError) in try Self.units(payload) }
    }

    /// `icef`: a code byte (offset and size field widths), a unit count, then each unit's
    /// offset (or none: units follow each other) and size.
    private static func units(_ icef: [UInt8]) throws(UncompressedError) -> [Range<Int>] {
        let reader = ByteReader(icef)
        let offsetBytes = [0, 2, 3, 4, 8], sizeBytes = [1, 2, 3, 4, 8]
        guard reader.u8(0) == 0, let codes = reader.u8(4), let count = reader.u32(5) else {
            throw .malformed("'icef' box is cut short or of an unknown version")
        }
        let offsetCode = Int(codes >> 5), sizeCode = Int((codes >> 2) & 0x07)
        guard offsetCode < offsetBytes.count, sizeCode < sizeBytes.count else {
            throw .malformed("'icef' field size codes \(offsetCode) and \(sizeCode)")
        }
        let entry = offsetBytes[offsetCode] + sizeBytes[sizeCode]
        guard Int(count) <= (icef.count - 9) / entry else { throw .malformed("'icef' lists \(count) units it does not hold") }
        var units: [Range<Int>] = []
        var offset = 9, implied = 0
        for _ in 0..<Int(count) {
            let start = offsetCode == 0 ? implied : try field(reader, offset, offsetBytes[offsetCode])
            let size = try field(reader, offset + offsetBytes[offsetCode], sizeBytes[sizeCode])
            offset += entry
            let (end, overflow) = start.addingReportingOverflow(size)
            guard !overflow else { throw .malformed("an 'icef' unit ends past any file") }
            units.append(start..<end)
            implied = end
        }
        return units
    }

    /// A big-endian unsigned field of `width` bytes, as a non-negative `Int`.
    private static func field(_ reader: ByteReader, _ offset: Int, _ width: Int) throws(UncompressedError) -> Int {
        guard let bytes = reader.slice(offset, width) else { throw .malformed("'icef' box is cut short") }
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        guard let result = Int(exactly: value), result <= Int(Int32.max) * 1024 else { throw .malformed("an 'icef' value of \(value)") }
        return result
    }
}

/// Decompresses one unit with `method`, producing at most `maxBytes` bytes (more is an
/// error: a decompression bomb). Supplied by the pipeline (zlib, libbrotli), so this
/// target imports no C library.
package typealias Decompressor = (_ method: GenericCompression.Method, _ data: ArraySlice<UInt8>, _ maxBytes: Int) throws -> [UInt8]
