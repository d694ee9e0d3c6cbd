import H2JJPEGCodec
import H2JTiles

/// A 256-entry table applied to every sample on its way to the encoder: how an Apple
/// gain map's codes become ISO 21496-1 codes (`GainMapMetadata.appleCodeMapping`).
/// Gain maps are single-channel, so for raw planes only the first (luma) is mapped.
struct SampleMapping {
    let table: [UInt8]

    /// `count` rows of `stride` bytes, mapped into a buffer of the same layout.
    func mapped(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) -> [UInt8] {
        table.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: stride * count) { buffer, initialized in
                for index in 0..<(stride * count) { buffer[index] = table[Int(rows[index])] }
                initialized = stride * count
            }
        }
    }
}

extension JPEGWriter {
    /// `count` interleaved rows, each sample through `mapping` when given.
    func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int, mapping: SampleMapping?) throws {
        guard let mapping else { return try writeRows(rows, stride: stride, count: count) }
        let mapped = mapping.mapped(rows, stride: stride, count: count)
        try mapped.withUnsafeBufferPointer { try writeRows($0.baseAddress!, stride: stride, count: count) }
    }
}

/// The tile engine's raw bands, the first plane mapped through a `SampleMapping`, then
/// handed to the encoder.
struct MappedRawPlaneSink: RawPlaneSink {
    let writer: JPEGWriter
    let mapping: SampleMapping

    var rawRowsPerCall: Int { writer.rawRowsPerCall }

    func writeRaw(planes: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
        let first = mapping.mapped(planes[0], stride: strides[0], count: rows)
        try first.withUnsafeBufferPointer { mapped in
            try writer.writeRaw(planes: [mapped.baseAddress!] + planes.dropFirst(), strides: strides, rows: rows)
        }
    }
}
