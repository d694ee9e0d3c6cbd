/// Builds `hvcC` payloads (the bytes after the box header) field by field.
package enum HvcCBuilder {
    /// `arrays`: one entry per NAL unit array, its type and NAL units.
    package static func payload(chroma: UInt8 = 1, lumaDepth: UInt8 = 8, chromaDepth: UInt8 = 8, lengthSize: UInt8 = 4,
                                arrays: [(type: UInt8, nals: [[UInt8]])]) -> [UInt8] {
        var bytes: [UInt8] = [1, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 90, 0xF0, 0x00, 0xFC]
        bytes += [0xFC | chroma, 0xF8 | (lumaDepth - 8), 0xF8 | (chromaDepth - 8), 0, 0, 0x0C | (lengthSize - 1), UInt8(arrays.count)]
        for array in arrays {
            bytes += [0x80 | array.type, UInt8(array.nals.count >> 8), UInt8(array.nals.count & 0xFF)]
            for nal in array.nals { bytes += [UInt8(nal.count >> 8), UInt8(nal.count & 0xFF)] + nal }
        }
        return bytes
    }

    /// The usual three arrays for the given parameter sets (NAL type from each header).
    package static func payload(chroma: UInt8, depth: UInt8, lengthSize: UInt8 = 4, parameterSets: [[UInt8]]) -> [UInt8] {
        payload(chroma: chroma, lumaDepth: depth, chromaDepth: depth, lengthSize: lengthSize,
                arrays: parameterSets.map { (type: $0[0] >> 1 & 0x3F, nals: [$0]) })
    }
}
