import H2JSupport

/// An HEVC decoder configuration record: the payload of an `hvcC` item property
/// (ISO/IEC 14496-15 §8.3.3.1), which holds what a tile decoder needs besides the
/// item's own bytes: the sample format it declares, the size of the length prefix
/// before each NAL unit of the item data, and the parameter sets.
///
/// The fields are the container's claims. The decoded picture carries the SPS's own
/// values, and `HEVCTileDecoder` checks that they agree.
package struct HEVCConfiguration: Sendable, Equatable {
    /// `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    package let chromaFormat: Int
    /// 8…15.
    package let bitDepthLuma: Int
    /// 8…15.
    package let bitDepthChroma: Int
    /// Bytes of the big-endian length before each NAL unit of the item data: 1, 2 or 4.
    package let lengthSize: Int
    /// Every NAL unit of every array, in record order (usually VPS, SPS, PPS, then
    /// SEI), without length prefixes. Each is at least its 2-byte NAL unit header.
    package let parameterSets: [[UInt8]]

    /// At most this many NAL units in one record; real files have 3 or 4.
    package static let maxNALUnits = 1024

    package init(chromaFormat: Int, bitDepthLuma: Int, bitDepthChroma: Int, lengthSize: Int, parameterSets: [[UInt8]]) {
        self.chromaFormat = chromaFormat
        self.bitDepthLuma = bitDepthLuma
        self.bitDepthChroma = bitDepthChroma
        self.lengthSize = lengthSize
        self.parameterSets = parameterSets
    }

    /// The `nal_unit_type` of a NAL unit (bits 1…6 of its first byte), nil when empty.
    package static func nalUnitType(_ nal: [UInt8]) -> Int? {
        nal.first.map { Int($0 >> 1) & 0x3F }
    }

    /// Parses an `hvcC` payload: the bytes after the 8-byte box header (`hvcC` is not
    /// a FullBox). `configurationVersion` is not checked, as other readers do not;
    /// bytes after the last array are ignored.
    ///
    /// Never traps: every read goes through `ByteReader`, and the loops are bounded by
    /// `maxNALUnits` and by the payload size.
    package static func parse(_ payload: [UInt8]) throws(HEIFError) -> HEVCConfiguration {
        let reader = ByteReader(payload)
        // Fixed part: 23 bytes; the fields used here are in bytes 16, 17, 18, 21 and 22.
        guard reader.contains(offset: 0, length: 23), let chroma = reader.u8(16), let lumaDepth = reader.u8(17),
              let chromaDepth = reader.u8(18), let lengthByte = reader.u8(21), let arrayCount = reader.u8(22)
        else { throw .truncatedBox("hvcC") }
        let lengthSize = Int(lengthByte & 0x03) + 1
        guard lengthSize != 3 else {
            throw .malformedBox("hvcC", reason: "lengthSizeMinusOne is 2; NAL unit lengths must take 1, 2 or 4 bytes")
        }
        var parameterSets: [[UInt8]] = []
        var offset = 23
        for array in 0..<Int(arrayCount) {
            guard let count = reader.u16(offset + 1) else { throw .truncatedBox("hvcC") }
            offset += 3
            guard parameterSets.count + Int(count) <= maxNALUnits else {
                throw .malformedBox("hvcC", reason: "more than \(maxNALUnits) NAL units")
            }
            for _ in 0..<Int(count) {
                guard let length = reader.u16(offset) else { throw .truncatedBox("hvcC") }
                guard length >= 2 else {
                    throw .malformedBox("hvcC", reason: "array \(array) holds a NAL unit of \(length) bytes, shorter than a NAL unit header")
                }
                guard let nal = reader.slice(offset + 2, Int(length)) else {
                    throw .malformedBox("hvcC", reason: "a \(length)-byte NAL unit of array \(array) runs past the \(payload.count)-byte record")
                }
                parameterSets.append(nal)
                offset += 2 + Int(length)
            }
        }
        return HEVCConfiguration(chromaFormat: Int(chroma & 0x03), bitDepthLuma: Int(lumaDepth & 0x07) + 8,
                                 bitDepthChroma: Int(chromaDepth & 0x07) + 8, lengthSize: lengthSize,
                                 parameterSets: parameterSets)
    }
}
