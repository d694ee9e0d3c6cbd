import CDe265
import CUnwrittenBlocks
import H2JContainer
import H2JSupport
import H2JTiles

/// Decodes HEVC image items (grid tiles) with libde265, one tile at a time, reusing
/// one decoder context.
///
/// Create one per worker thread and keep it: an instance is not thread-safe, but
/// separate instances may decode concurrently on different threads. No libde265
/// worker threads are started; the engine parallelises across tiles.
///
/// Per tile: the `hvcC` parameter sets are pushed, then the item's NAL units, the
/// input is flushed, and libde265 decodes until the first picture comes out (an image
/// item holds one). Afterwards the picture is released and the context reset, whatever
/// happened. See `De265Status` for which libde265 warnings fail a tile; a picture with a
/// block libde265 never wrote fails it too (`DecodedPicture.checkWritten`).
///
/// libde265 keeps parameter sets across `de265_reset`, so `decode` requires each
/// configuration to hold a VPS, an SPS and a PPS (`tileUnits(in:)`).
package final class HEVCTileDecoder: TileDecoding {
    private let context: UnsafeMutableRawPointer

    package init() throws(TileDecodingError) {
        guard Self.libraryInitialized else { throw TileDecodingError("libde265 could not initialise its tables") }
        guard let context = de265_new_decoder() else { throw TileDecodingError("libde265 could not create a decoder") }
        self.context = context
        // A picture libde265 itself marks as damaged is not output: the tile then
        // fails with "no picture" instead of yielding concealed garbage.
        de265_set_parameter_bool(context, DE265_DECODER_PARAM_SUPPRESS_FAULTY_PICTURES, 1)
    }

    deinit { de265_free_decoder(context) }

    /// One `de265_init` for the whole process, never paired with `de265_free`.
    ///
    /// libde265 1.0.11 guards `de265_init`/`de265_free` with a mutex and counts them;
    /// `de265_new_decoder` and `de265_free_decoder` call them. When the count drops to 0
    /// it frees its global tables, and the next decoder rebuilds them. Holding one
    /// reference keeps the tables built once (Swift runs this initialiser once, thread-safely),
    /// so decoders created and freed on several threads, ours or libheif's, never
    /// rebuild tables while another thread starts.
    private static let libraryInitialized: Bool = de265_init() == DE265_OK

    /// Decodes one tile and calls `body` with its picture, which is valid only during
    /// the call. `data` is the item's bytes: NAL units, each after a big-endian length
    /// of `configuration.lengthSize` bytes.
    ///
    /// Throws `TileDecodingError` when the data is not a sequence of whole length-prefixed
    /// NAL units, when the configuration lacks a VPS, SPS or PPS, when libde265 reports an
    /// error or a warning that means corrupt data, when no picture comes out, or when part
    /// of the picture was never decoded (a slice that ends early); and whatever `body` throws. The picture is not checked against `hvcC`'s summary fields,
    /// which some writers get wrong: the caller checks it against what it expects.
    package func decode<R>(_ configuration: HEVCConfiguration, data: [UInt8],
                          body: (DecodedPicture) throws -> R) throws -> R {
        defer { endTile() }
        let units = try configuration.tileUnits(in: data)
        for nal in configuration.parameterSets {
            let status = nal.withUnsafeBytes(push)
            guard status == DE265_OK else { throw TileDecodingError(libde265: [status]) }
        }
        for unit in units {
            let status = data.withUnsafeBytes { push(UnsafeRawBufferPointer(rebasing: $0[unit])) }
            guard status == DE265_OK else { throw TileDecodingError(libde265: [status]) }
        }
        let status = de265_flush_data(context)
        guard status == DE265_OK else { throw TileDecodingError(libde265: [status]) }
        let image = try decodeFirstPicture()
        let picture = try DecodedPicture(image)
        try picture.checkWritten()
        return try body(picture)
    }

    /// Runs `de265_decode` until a picture is in the output queue, and returns it
    /// (still owned by libde265). Warnings are drained after every step so libde265's
    /// 20-entry queue never overflows.
    private func decodeFirstPicture() throws(TileDecodingError) -> OpaquePointer {
        var warnings: [de265_error] = []
        func drainWarnings() {
            while case let warning = de265_get_warning(context), warning != DE265_OK {
                if !warnings.contains(warning) { warnings.append(warning) }
            }
        }
        while true {
            var more: Int32 = 0
            // The picture buffers libde265 allocates here hold the unwritten-block pattern.
            h2j_unwritten_fill_allocations_begin()
            let status = de265_decode(context, &more)
            h2j_unwritten_fill_allocations_end()
            drainWarnings()
            // A non-OK status also ends `more`; harmless ones (SEI only) let decoding go on.
            let faults = ([status] + warnings).filter { !De265Status.isHarmless($0) }
            guard faults.isEmpty else { throw TileDecodingError(libde265: faults) }
            if let image = de265_peek_next_picture(context) { return image }
            // Each call consumes a NAL unit or a slice, or finds nothing left: finite.
            if more == 0 && status == DE265_OK {
                throw TileDecodingError("the tile produced no picture")
            }
        }
    }

    /// `de265_push_NAL` (libde265 copies the bytes). Lengths fit in `Int32`: parameter
    /// sets are under 64 KiB and `HEVCConfiguration.nalUnits` checks the others.
    private func push(_ nal: UnsafeRawBufferPointer) -> de265_error {
        de265_push_NAL(context, nal.baseAddress, Int32(clamping: nal.count), 0, nil)
    }

    /// Releases any output picture, clears the input and picture buffers, and empties
    /// the warning queue, so the next tile starts clean.
    private func endTile() {
        while de265_peek_next_picture(context) != nil { de265_release_next_picture(context) }
        de265_reset(context)
        while de265_get_warning(context) != DE265_OK {}
    }
}
