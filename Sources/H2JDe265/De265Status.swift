import CDe265
import H2JTiles

extension TileDecodingError {
    /// A libde265 failure: "HEVC decoding failed: <libde265 text>[; <more text>…]".
    init(libde265 statuses: [de265_error]) {
        self.init("HEVC decoding failed: " + De265Status.describe(statuses))
    }
}

/// How libde265's status codes are judged. libde265 reports some problems as the
/// return value of `de265_decode` and others only as warnings in a queue
/// (`de265_get_warning`); both use the `de265_error` codes.
///
/// A tile is one intra picture in a complete item, so anything short of a clean decode
/// means corrupt or unsupported data, and fails the tile. The exceptions, which leave
/// the picture's samples intact and are only collected:
/// - `DE265_WARNING_INCORRECT_ENTRY_POINT_OFFSET`: a slice header's entry points do not
///   match the data. Without worker threads libde265 decodes substreams sequentially and
///   never uses them.
/// - `DE265_WARNING_SPS_MISSING_CANNOT_DECODE_SEI`: a picture-hash SEI arrived before any
///   SPS; SEI never changes samples.
/// - `DE265_WARNING_NO_WPP_CANNOT_USE_MULTITHREADING`,
///   `DE265_WARNING_NUMBER_OF_THREADS_LIMITED_TO_MAXIMUM`: threading notes (we start none).
/// - `DE265_WARNING_WARNING_BUFFER_FULL`: more than libde265's 20 queued warnings; the
///   ones before it decide.
///
/// Every other warning (invalid SPS/PPS/slice header, missing parameter set, CTB outside
/// the picture, end-of-substream bit not set, bad references or motion vectors, chroma or
/// bit depth not matching the SPS, …) and every error code fails the tile.
enum De265Status {
    static let harmless: Set<UInt32> = [
        DE265_WARNING_INCORRECT_ENTRY_POINT_OFFSET.rawValue,
        DE265_WARNING_SPS_MISSING_CANNOT_DECODE_SEI.rawValue,
        DE265_WARNING_NO_WPP_CANNOT_USE_MULTITHREADING.rawValue,
        DE265_WARNING_NUMBER_OF_THREADS_LIMITED_TO_MAXIMUM.rawValue,
        DE265_WARNING_WARNING_BUFFER_FULL.rawValue,
    ]

    /// True when `status` leaves the picture usable (see the type's documentation).
    static func isHarmless(_ status: de265_error) -> Bool {
        status == DE265_OK || harmless.contains(status.rawValue)
    }

    /// libde265's texts for `statuses`, distinct, in order, joined by "; ".
    static func describe(_ statuses: [de265_error]) -> String {
        var seen: Set<UInt32> = []
        let texts = statuses.filter { $0 != DE265_OK && seen.insert($0.rawValue).inserted }.map { status in
            de265_get_error_text(status).map { String(cString: $0) } ?? "libde265 status \(status.rawValue)"
        }
        return texts.joined(separator: "; ")
    }
}
