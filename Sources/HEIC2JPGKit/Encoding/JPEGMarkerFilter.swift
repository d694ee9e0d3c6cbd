/// Marker-level edits of an existing JPEG, for sources that already are JPEG: the
/// entropy-coded data is never touched, so the copy is lossless.
enum JPEGMarkerFilter {
    /// Header segments up to (not including) SOS, or nil when the structure is not
    /// what a JPEG must be (then callers leave the bytes alone).
    private static func headerSegments(_ bytes: [UInt8]) -> (segments: [JPEGSegments.Segment], scanStart: Int)? {
        JPEGSegments.read(from: MemoryByteSource(bytes)).map { ($0.segments, $0.scanStart) }
    }

    /// Strip mode for JPEG sources: drops EXIF/XMP (APP1), APP3–APP13, APP15 and COM;
    /// keeps JFIF (APP0), ICC (APP2), Adobe (APP14) and everything structural.
    static func strippingMetadata(from bytes: [UInt8]) -> [UInt8] {
        guard let (segments, scanStart) = headerSegments(bytes) else { return bytes }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        for segment in segments where !isMetadata(segment.marker) {
            out.append(contentsOf: bytes[segment.range])
        }
        out.append(contentsOf: bytes[scanStart...])
        return out
    }

    private static func isMetadata(_ marker: UInt8) -> Bool {
        marker == 0xE1 || (0xE3...0xED).contains(marker) || marker == 0xEF || marker == 0xFE
    }

    /// Which metadata a JPEG carries, by its APP1 `Exif` / XMP and APP2 `ICC_PROFILE` segments.
    static func metadataPresent(in bytes: [UInt8]) -> ConversionResult.MetadataKept {
        var kept = ConversionResult.MetadataKept()
        guard let (segments, _) = headerSegments(bytes) else { return kept }
        for segment in segments {
            let body = Array(bytes[(segment.range.lowerBound + 4)..<segment.range.upperBound].prefix(30))
            if segment.marker == 0xE1, body.starts(with: Array("Exif\0".utf8)) { kept.exif = true }
            if segment.marker == 0xE1, body.starts(with: XMPForJPEG.header) { kept.xmp = true }
            if segment.marker == 0xE2, body.starts(with: Array("ICC_PROFILE\0".utf8)) { kept.icc = true }
        }
        return kept
    }
}
