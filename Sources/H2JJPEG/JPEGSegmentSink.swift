import H2JSupport

/// Where an output's header segments go: libjpeg's encoder (`JPEGWriter`, which writes
/// them after its frame header) or `JPEGSegmentBytes`, for a JPEG heic2jpg writes
/// without encoding (a HEIF `jpeg` item's own codestream, `JPEGMarkerFilter.grafting`).
package protocol JPEGSegmentSink {
    /// One segment: `marker` (e.g. 0xE1 for APP1) and its payload (after the length).
    func writeMarker(_ marker: Int, _ payload: [UInt8]) throws
    /// An ICC profile as APP2 `ICC_PROFILE` chunks.
    func writeICC(_ profile: [UInt8]) throws
}

/// Header segments collected as bytes, each with its marker and length, in the order
/// written.
package final class JPEGSegmentBytes: JPEGSegmentSink {
    package private(set) var bytes: [UInt8] = []

    /// The largest ICC chunk: a segment's payload less the signature, sequence number and
    /// count (ICC.1 Annex B.4; libjpeg's `jpeg_write_icc_profile` cuts at the same size).
    static let maxICCChunk = JPEGAPPSignature.maxPayloadBytes - JPEGAPPSignature.icc.count - 2

    package init() {}

    package func writeMarker(_ marker: Int, _ payload: [UInt8]) throws(JPEGSegmentError) {
        guard (0xC0...0xFE).contains(marker), payload.count <= JPEGAPPSignature.maxPayloadBytes else {
            throw JPEGSegmentError(marker: marker, bytes: payload.count)
        }
        let length = payload.count + 2
        bytes += [0xFF, UInt8(marker), UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    package func writeICC(_ profile: [UInt8]) throws(JPEGSegmentError) {
        let count = (profile.count + Self.maxICCChunk - 1) / Self.maxICCChunk
        guard (1...255).contains(count) else { throw JPEGSegmentError(marker: 0xE2, bytes: profile.count) }
        for index in 0..<count {
            let chunk = profile[(index * Self.maxICCChunk)..<min(profile.count, (index + 1) * Self.maxICCChunk)]
            try writeMarker(0xE2, JPEGAPPSignature.icc + [UInt8(index + 1), UInt8(count)] + chunk)
        }
    }
}

/// A segment that no JPEG can hold (a payload over 65,533 bytes, an ICC profile of
/// more than 255 chunks, or no such marker).
package struct JPEGSegmentError: Error, CustomStringConvertible {
    let marker: Int
    let bytes: Int
    package var description: String {
        "a JPEG segment (marker 0x\(String(marker, radix: 16, uppercase: true))) cannot hold \(bytes) bytes"
    }
}

extension JPEGSegmentError: CodedError {
    package var code: ErrorCode { .encodeFailed }
}
