/// The marker segments of a JPEG before its first scan (ITU-T T.81 §B.1.1.4, §B.2):
/// APPn, DQT, DHT, SOFn, COM, … each a marker and a 16-bit length that counts itself.
///
/// Read from a `ByteSource`, so only segment heads are read here; callers read the
/// payloads they want. Fill bytes (`FF` runs before a marker, §B.1.1.2) are skipped.
///
/// Invariant: never traps; every segment lies inside the source; the walk reads at
/// most `window` bytes per segment or fill-byte run, always moves forward, and stops at
/// SOS, at the end of the data, or at anything that is not a length-bearing marker (then
/// `read` returns nil).
public struct JPEGSegments: Sendable {
    /// One segment before the scan.
    public struct Segment: Sendable, Equatable {
        /// The marker code: `0xE1` for APP1, `0xC0` for SOF0, …
        public let marker: UInt8
        /// The whole segment, from its `FF` marker byte to the end of its payload.
        public let range: Range<Int>
        /// The payload: after the marker and the two length bytes.
        public var payload: Range<Int> { (range.lowerBound + 4)..<range.upperBound }
    }

    public let segments: [Segment]
    /// Offset of the SOS marker that starts the first scan.
    public let scanStart: Int

    /// Bytes read per step while skipping fill bytes.
    private static let window = 64

    /// The segments of `source` up to its first SOS, or nil when it does not start with
    /// SOI or its header is not a chain of length-bearing markers ending in SOS.
    public static func read(from source: ByteSource) -> JPEGSegments? {
        guard source.size >= 2, (try? source.read(at: 0, count: 2)) == [0xFF, 0xD8] else { return nil }
        var segments: [Segment] = []
        var offset = 2
        while offset < source.size {
            guard let head = try? ByteReader(source.read(at: offset, count: min(window, source.size - offset))),
                  head.u8(0) == 0xFF else { return nil }
            // Skip fill bytes: the marker code is the first byte after the FF run.
            var codeAt = 1
            while head.u8(codeAt) == 0xFF { codeAt += 1 }
            guard let code = head.u8(codeAt) else {
                guard codeAt > 1 else { return nil }  // FF at the very end
                offset += codeAt - 1  // a window of fill bytes; keep the last FF
                continue
            }
            let markerAt = offset + codeAt - 1
            if code == 0xDA { return JPEGSegments(segments: segments, scanStart: markerAt) }
            // SOI, EOI, RSTn, TEM and a stuffed 00 carry no length and cannot come here.
            guard code != 0x00, code != 0x01, !(0xD0...0xD9).contains(code) else { return nil }
            // The length is in the window unless fill bytes pushed it out.
            guard let length = head.u16(codeAt + 1)
                    ?? (try? source.read(at: markerAt + 2, count: 2)).flatMap({ ByteReader($0).u16(0) }) else { return nil }
            let (end, overflow) = (markerAt + 2).addingReportingOverflow(Int(length))
            guard length >= 2, !overflow, end <= source.size else { return nil }
            segments.append(Segment(marker: code, range: markerAt..<end))
            offset = end
        }
        return nil
    }

    /// The payload bytes of `segment`, read from `source`.
    public static func payload(of segment: Segment, in source: ByteSource) -> [UInt8]? {
        try? source.read(at: segment.payload.lowerBound, count: segment.payload.count)
    }
}
