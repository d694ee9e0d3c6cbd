/// Marker-level edits of an existing JPEG, for sources that already are JPEG: the
/// entropy-coded data is never touched, so the copy is lossless.
package enum JPEGMarkerFilter {
    /// Strip mode for JPEG sources: drops EXIF/XMP (APP1), APP3–APP13, APP15 and COM;
    /// keeps JFIF (APP0), ICC (APP2), Adobe (APP14) and everything structural.
    package static func strippingMetadata(from bytes: [UInt8]) -> [UInt8] {
        guard let header = JPEGSegments(bytes) else { return bytes }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        for segment in header.segments where !isMetadata(segment.marker) {
            out.append(contentsOf: bytes[segment.range])
        }
        out.append(contentsOf: bytes[header.scanStart...])
        return out
    }

    private static func isMetadata(_ marker: UInt8) -> Bool {
        marker == 0xE1 || (0xE3...0xED).contains(marker) || marker == 0xEF || marker == 0xFE
    }

    /// Which metadata a JPEG carries, by its APP1 `Exif` / XMP and APP2 `ICC_PROFILE` segments.
    package static func metadataPresent(in bytes: [UInt8]) -> MetadataKept {
        guard let header = JPEGSegments(bytes) else { return MetadataKept() }
        return MetadataKept(exif: !header.payloads(0xE1, signature: JPEGAPPSignature.exif).isEmpty,
                                             xmp: !header.payloads(0xE1, signature: JPEGAPPSignature.xmp).isEmpty,
                                             icc: !header.payloads(0xE2, signature: JPEGAPPSignature.icc).isEmpty)
    }
}
