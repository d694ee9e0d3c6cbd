import H2JContainer
import H2JSupport
import H2JTestSupport
import H2JUncompressed

/// Builders of `uncC`, `cmpd`, `cmpC` and `icef` payloads, bit-packed sample data and
/// stored (uncompressed) deflate and zlib streams, for decoding synthetic images.
enum UNCI {
    typealias B = BoxBuilder

    /// `cmpd`: component types (ISO/IEC 23001-17 Table 1).
    static func cmpd(_ types: [Int]) -> [UInt8] { B.u32(types.count) + types.flatMap(B.u16) }

    /// `uncC` version 0: each component as (cmpd index, bits, align bytes).
    static func uncC(_ components: [(Int, Int, Int)], sampling: Int = 0, interleave: Int, blockSize: Int = 0, flags: UInt8 = 0,
                     pixelSize: Int = 0, rowAlign: Int = 0, tileAlign: Int = 0, tiles: (columns: Int, rows: Int) = (1, 1)) -> [UInt8] {
        var payload = B.fullBox(0) + B.u32(0) + B.u32(components.count)
        for (index, bits, align) in components { payload += B.u16(index) + [UInt8(bits - 1), 0, UInt8(align)] }
        payload += [UInt8(sampling), UInt8(interleave), UInt8(blockSize), flags]
        return payload + B.u32(pixelSize) + B.u32(rowAlign) + B.u32(tileAlign) + B.u32(tiles.columns - 1) + B.u32(tiles.rows - 1)
    }

    /// `uncC` version 1 naming a profile.
    static func profile(_ name: String) -> [UInt8] { B.fullBox(1) + Array(name.utf8) }

    static func cmpC(_ method: String, unit: Int) -> [UInt8] { B.fullBox(0) + Array(method.utf8) + [UInt8(unit)] }

    /// `icef` with 32-bit offsets and sizes.
    static func icef(_ units: [Range<Int>]) -> [UInt8] {
        B.fullBox(0) + [3 << 5 | 3 << 2] + B.u32(units.count) + units.flatMap { B.u32($0.lowerBound) + B.u32($0.count) }
    }

    /// Decodes `data` as a `width` × `height` image of `format`; rows of the result.
    static func decode(_ format: UncompressedFormat, _ width: Int, _ height: Int, _ data: [UInt8],
                       compression: GenericCompression? = nil, nclx: NCLX? = nil,
                       background: RGBColor = .white) throws -> [[UInt8]] {
        let image = try UncompressedImage(format: format, compression: compression, width: width, height: height)
        let raster = try image.decode(data, decompress: decompress, nclx: nclx, background: background)
        return (0..<height).map { Array(UnsafeBufferPointer(start: raster.row($0), count: width * raster.components)) }
    }

    /// Stored-block streams only (no compression), enough for the layouts.
    static func decompress(_ method: GenericCompression.Method, _ data: ArraySlice<UInt8>, _ maxBytes: Int) throws -> [UInt8] {
        var bytes = Array(data)
        if method == .zlib { bytes = Array(bytes.dropFirst(2).dropLast(4)) }
        var out: [UInt8] = [], at = 0
        while at + 5 <= bytes.count {
            let length = Int(bytes[at + 1]) | Int(bytes[at + 2]) << 8
            out += bytes[(at + 5)..<min(bytes.count, at + 5 + length)]
            at += 5 + length
        }
        guard out.count <= maxBytes else { throw UncompressedError.malformed("bomb") }
        return out
    }

    /// `data` as one stored deflate block, framed as zlib (header and Adler-32) when asked.
    static func stored(_ data: [UInt8], zlib: Bool) -> [UInt8] {
        let length = data.count
        let block: [UInt8] = [1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)] + data
        guard zlib else { return block }
        var a = 1, b = 0
        for byte in data { a = (a + Int(byte)) % 65521; b = (b + a) % 65521 }
        return [0x78, 0x01] + block + B.u32(b << 16 | a)
    }

    /// Values packed most significant bit first.
    struct Bits {
        private(set) var bytes: [UInt8] = []
        private var used = 0

        mutating func put(_ value: Int, _ bits: Int) {
            for shift in stride(from: bits - 1, through: 0, by: -1) {
                if used % 8 == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> shift) & 1) << (7 - used % 8)
                used += 1
            }
        }

        mutating func align() { used = (used + 7) / 8 * 8 }
    }
}
