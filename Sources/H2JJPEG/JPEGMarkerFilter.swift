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

    /// The JPEG of `codestream` with heic2jpg's header segments in place of its own
    /// metadata: SOI, its JFIF APP0 when that comes first (JFIF wants it there), `header`
    /// (the graft's EXIF, XMP, ICC and any Multi-Picture segment), then its other
    /// segments and the scan, byte for byte. Dropped from the codestream: every APP1
    /// (EXIF, XMP: `header` carries what the source has), its ICC chunks, Multi-Picture
    /// and ISO 21496-1 APP2s (they would describe another file), and with `strip` what
    /// `strippingMetadata` drops.
    package static func grafting(_ header: [UInt8], into codestream: JPEGSegments, strip: Bool) -> [UInt8] {
        let bytes = codestream.bytes
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count + header.count)
        var segments = codestream.segments[...]
        if let first = segments.first, first.marker == 0xE0, bytes[first.payload].starts(with: Array("JFIF\0".utf8)) {
            out += bytes[first.range]
            segments = segments.dropFirst()
        }
        out += header
        for segment in segments where !replaced(segment, in: bytes) && !(strip && isMetadata(segment.marker)) {
            out += bytes[segment.range]
        }
        out += bytes[codestream.scanStart...]
        return out
    }

    /// APP1 (EXIF, XMP, Extended XMP) and the APP2s heic2jpg writes itself.
    private static func replaced(_ segment: JPEGSegments.Segment, in bytes: [UInt8]) -> Bool {
        guard segment.marker == 0xE2 else { return segment.marker == 0xE1 }
        let payload = bytes[segment.payload]
        return [JPEGAPPSignature.icc, JPEGAPPSignature.iso21496, Array("MPF\0".utf8)].contains { payload.starts(with: $0) }
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
