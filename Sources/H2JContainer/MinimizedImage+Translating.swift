import H2JSupport

extension MinimizedImage {
    /// The file in `source` as the ordinary HEIF it stands for, when it is a low-overhead
    /// file (`ftyp` naming `mif3`, then a `mini` box); nil for any other file, which is
    /// read as it is.
    ///
    /// The result is the synthesized `ftyp` + `meta` (`heifHeader`) in memory, followed
    /// by the file's own bytes read in place (`SplicedByteSource`), so everything after
    /// (our container reader, the tile engine, libheif) sees an ordinary HEIF. Only the
    /// fields, the small chunks and the EXIF (at most 2^20 bytes) are read here.
    ///
    /// Throws when the `mini` box cannot be read, when its EXIF or XMP is compressed
    /// (heic2jpg has no deflate), and when the file also has a `meta` box: readers would
    /// disagree on which one describes the image (libheif 1.15 takes the last).
    package static func translating(_ source: ByteSource) throws(HEIFError) -> ByteSource? {
        guard let located = try locate(in: source) else { return nil }
        // The translation's offsets are the file's plus the header's few MB.
        guard source.size <= Int.max / 2 else { throw .limitExceeded("a 'mini' file of \(source.size) bytes") }
        let image = try read(from: source, payload: located.payload, brand: located.brand)
        if image.metadataCompressed {
            throw .unsupportedItemData(item: image.exif != nil ? ItemID.exif : ItemID.xmp,
                                       reason: "it is deflate-compressed ('mini' exif_xmp_compressed_flag), which heic2jpg does not decompress")
        }
        let exif = try image.exif.map { range throws(HEIFError) in
            Self.exifItem(try source.containerBytes(at: range.lowerBound, count: range.count))
        }
        return SplicedByteSource(head: image.heifHeader(exifItem: exif, wrapping: located.payload.upperBound), tail: source)
    }

    /// The `mini` box's payload and the `ftyp` minor version (the codec brand), when the
    /// file starts with an `ftyp` whose brands include `mif3` and a `mini` box follows
    /// it. A broken `ftyp` is not ours to judge (nil): `HEIFStructure` reports it.
    static func locate(in source: ByteSource) throws(HEIFError) -> (payload: Range<Int>, brand: String)? {
        guard let ftyp = try? header(in: source, at: 0), ftyp.type == "ftyp",
              ftyp.payloadLength >= 8, ftyp.payloadLength <= HEIFLimits.maxMetaBytes else { return nil }
        let brands = try source.containerBytes(at: ftyp.payloadStart, count: ftyp.payloadLength)
        guard HEIFStructure.parseBrands(brands).contains("mif3"), let minor = ByteReader(brands).fourCC(4) else { return nil }
        let next: BoxHeader?
        do {
            next = try header(in: source, at: ftyp.end)
        } catch {
            // A `mini` box that runs past the end: the file was cut short.
            if case .truncatedBox("mini") = error { throw error }
            return nil
        }
        guard let mini = next, mini.type == "mini" else { return nil }
        var offset = mini.end
        while let box = try? header(in: source, at: offset) {
            if box.type == "meta" { throw .malformedBox("mini", reason: "the file also has a 'meta' box") }
            offset = box.end
        }
        return (mini.payloadStart..<mini.end, minor)
    }

    /// The top-level box header at `offset`, its positions in file offsets; nil past the end.
    private static func header(in source: ByteSource, at offset: Int) throws(HEIFError) -> BoxHeader? {
        guard offset <= source.size - 8 else { return nil }
        let bytes = ByteReader(try source.containerBytes(at: offset, count: min(16, source.size - offset)))
        guard let box = try BoxHeader.read(bytes, at: 0, limit: source.size - offset) else { return nil }
        return BoxHeader(type: box.type, start: offset + box.start, payloadStart: offset + box.payloadStart, end: offset + box.end)
    }
}
