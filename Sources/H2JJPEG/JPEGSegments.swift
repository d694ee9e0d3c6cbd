import H2JSupport

/// The header segments of a JPEG (from SOI up to SOS) and the metadata they carry: the
/// one bounds-checked segment walk, shared by `JPEGMarkerFilter` (copied JPEGs),
/// `compare` (reading back what an output carries) and `inspect`.
///
/// Invariant: never traps, whatever the bytes. Every `Segment.range` lies inside `bytes`
/// and holds at least the marker and its 2-byte length; the walk only moves forward;
/// allocation is bounded by the size of `bytes`.
package struct JPEGSegments {
    /// One segment before the scan.
    package struct Segment: Equatable {
        /// The marker's second byte: 0xE1 for APP1, 0xE2 for APP2, …
        package let marker: UInt8
        /// The whole segment: marker, length and payload.
        let range: Range<Int>
        /// The bytes after the 2-byte length.
        package var payload: Range<Int> { (range.lowerBound + 4)..<range.upperBound }
    }

    package let bytes: [UInt8]
    /// Every segment between SOI and SOS, in file order.
    package let segments: [Segment]
    /// Offset of the SOS marker: the scan and everything after it.
    let scanStart: Int

    /// Walks `bytes`; nil when they do not start with SOI, a segment runs past the end
    /// before SOS is reached, or a marker that carries no length (SOI, EOI, RSTn, TEM)
    /// stands where a segment must (then callers leave the bytes alone). Fill bytes, `FF`
    /// runs before a marker (ITU-T T.81 §B.1.1.2), are skipped.
    package init?(_ bytes: [UInt8]) {
        let reader = ByteReader(bytes)
        guard reader.u16(0) == 0xFFD8 else { return nil }
        var segments: [Segment] = []
        var offset = 2
        while let marker = reader.u16(offset), marker >> 8 == 0xFF {
            var code = UInt8(marker & 0xFF)
            while code == 0xFF, let next = reader.u8(offset + 2) {
                offset += 1
                code = next
            }
            guard code != 0xFF, code != 0x00, code != 0x01, !(0xD0...0xD9).contains(code) else { return nil }
            if code == 0xDA {
                self.bytes = bytes
                self.segments = segments
                scanStart = offset
                return
            }
            // `length` ≤ 65,535 and the segment lies inside `bytes`, so the sum cannot overflow.
            guard let length = reader.u16(offset + 2), length >= 2, reader.contains(offset: offset + 2, length: Int(length)) else { return nil }
            segments.append(Segment(marker: code, range: offset..<(offset + 2 + Int(length))))
            offset += 2 + Int(length)
        }
        return nil
    }

    /// Payloads of the `marker` segments that begin with `signature`, signature removed,
    /// in file order.
    package func payloads(_ marker: UInt8, signature: [UInt8]) -> [ArraySlice<UInt8>] {
        segments.compactMap { segment in
            guard segment.marker == marker else { return nil }
            let payload = bytes[segment.payload]
            guard payload.starts(with: signature) else { return nil }
            return payload.dropFirst(signature.count)
        }
    }

    /// The TIFF bytes of the first APP1 `Exif\0\0` segment.
    package var exifTIFF: [UInt8]? { payloads(0xE1, signature: JPEGAPPSignature.exif).first.map(Array.init) }

    /// The packet of the first APP1 XMP segment (after the namespace header).
    package var xmpPacket: [UInt8]? { payloads(0xE1, signature: JPEGAPPSignature.xmp).first.map(Array.init) }

    /// The ICC profile reassembled from the APP2 `ICC_PROFILE` chunks (each: sequence
    /// number, chunk count, data) in sequence order. nil when there are none, or when
    /// they do not number 1…count exactly once each with one count.
    package var iccProfile: [UInt8]? {
        let chunks = payloads(0xE2, signature: JPEGAPPSignature.icc)
        guard let first = chunks.first, first.count >= 2 else { return nil }
        let count = Int(first[first.startIndex + 1])
        guard count == chunks.count else { return nil }
        var ordered = [ArraySlice<UInt8>?](repeating: nil, count: count)
        for chunk in chunks {
            guard chunk.count >= 2, Int(chunk[chunk.startIndex + 1]) == count else { return nil }
            let sequence = Int(chunk[chunk.startIndex])
            guard (1...count).contains(sequence), ordered[sequence - 1] == nil else { return nil }
            ordered[sequence - 1] = chunk.dropFirst(2)
        }
        return ordered.reduce(into: [UInt8]()) { profile, chunk in profile += chunk ?? [] }
    }
}
