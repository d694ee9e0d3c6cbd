import H2JSupport

/// One track of a top-level `moov` box: an image sequence (`pict`), a video (`vide`),
/// an auxiliary sequence (`auxv`: alpha or depth), audio, or anything else. heic2jpg
/// converts still images only; tracks are described (`inspect`) and named in the
/// warning of what a conversion leaves out (`contentNotCarried`).
package struct SequenceTrack: Sendable, Equatable {
    /// `tkhd` track ID.
    package let id: UInt32
    /// `hdlr` handler type of the track's media: `pict`, `vide`, `auxv`, `soun`, `meta`, …
    package let handler: String
    /// Samples (frames) in the track (`stsz` or `stz2`); nil when the table is missing.
    package let samples: Int?
    /// The `tkhd` presentation size, in whole pixels (0×0 for audio).
    package let width: Int
    package let height: Int

    package init(id: UInt32, handler: String, samples: Int?, width: Int, height: Int) {
        self.id = id
        self.handler = handler
        self.samples = samples
        self.width = width
        self.height = height
    }

    /// Whether the track shows pictures (an image sequence or a video, not audio or
    /// timed metadata, nor an alpha or depth sequence that belongs to another track).
    package var isVisual: Bool { handler == "pict" || handler == "vide" }

    /// The tracks of a `moov` payload. A track whose boxes are cut short or malformed is
    /// still listed with what could be read (an unknown handler is `????`): the point is
    /// that nothing is left out without a word, not to play the track.
    static func parseTracks(moov payload: [UInt8]) -> [SequenceTrack] {
        let reader = ByteReader(payload)
        guard let boxes = try? BoxHeader.children(reader, from: 0, to: reader.count) else { return [] }
        return boxes.filter { $0.type == "trak" }.map { trak in parseTrack(reader, trak) }
    }

    private static func parseTrack(_ reader: ByteReader, _ trak: BoxHeader) -> SequenceTrack {
        func children(_ box: BoxHeader?) -> [BoxHeader] {
            guard let box else { return [] }
            return (try? BoxHeader.children(reader, from: box.payloadStart, to: box.end)) ?? []
        }
        func child(_ box: BoxHeader?, _ type: String) -> BoxHeader? { children(box).first { $0.type == type } }
        var id: UInt32 = 0
        var width = 0, height = 0
        if let tkhd = child(trak, "tkhd"), let version = reader.u8(tkhd.payloadStart) {
            // Version 1 has 64-bit times: creation, modification, (ID), reserved, duration.
            let idOffset = tkhd.payloadStart + (version == 1 ? 20 : 12)
            id = reader.u32(idOffset) ?? 0
            // Width and height, 16.16 fixed point, end the box.
            width = Int((reader.u32(tkhd.end - 8) ?? 0) >> 16)
            height = Int((reader.u32(tkhd.end - 4) ?? 0) >> 16)
        }
        let mdia = child(trak, "mdia")
        let handler = child(mdia, "hdlr").flatMap { reader.fourCC($0.payloadStart + 8) } ?? "????"
        let stbl = child(child(mdia, "minf"), "stbl")
        var samples: Int?
        if let stsz = child(stbl, "stsz") {
            samples = reader.u32(stsz.payloadStart + 8).map(Int.init)
        } else if let stz2 = child(stbl, "stz2") {
            samples = reader.u32(stz2.payloadStart + 8).map(Int.init)
        }
        return SequenceTrack(id: id, handler: handler, samples: samples, width: width, height: height)
    }
}
