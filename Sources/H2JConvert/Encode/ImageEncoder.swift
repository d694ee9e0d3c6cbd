import H2JJPEG
import H2JJPEGCodec
import H2JSupport

/// The encode stage, the same for every image: libjpeg writes the frame header for the
/// format the pixel stage makes, then `segments` (the graft's, and any Multi-Picture or
/// gain-map segment), then the source's bands through the chain, then EOI. A source
/// whose own codestream stands for its pixels (a JPEG item, `ConversionEngine.codestream`)
/// is copied instead, the segments grafted into it, whenever the chain is empty.
enum ImageEncoder {
    static func encode(_ source: any ConversionEngine, chain: PixelChain, quality: Int, to fd: Int32, path: String,
                       strip: Bool, segments: (any JPEGSegmentSink) throws -> Void) throws {
        if chain.operations.isEmpty, let codestream = source.codestream {
            let header = JPEGSegmentBytes()
            try segments(header)
            return try POSIX.writeAll(JPEGMarkerFilter.grafting(header.bytes, into: codestream, strip: strip), to: fd, path: path)
        }
        let input = try source.pixelFormat()
        let output = try chain.format(after: input)
        let writer = try JPEGWriter(fd: fd)
        switch output.layout {
        case .rows(let components, let subsampling):
            try writer.start(width: output.width, height: output.height, components: components, quality: quality, subsampling: subsampling)
        case .planes(let components):
            try writer.startRaw(width: output.width, height: output.height, components: components, quality: quality)
        }
        try segments(writer)
        try source.emit(into: try chain.sink(input: input, into: writer))
        try writer.finish()
    }

    /// The size `source`'s pixels are encoded at, which its EXIF and XMP dimensions state:
    /// after the chain, or the codestream's own when it is copied.
    static func encodedSize(_ source: any ConversionEngine, chain: PixelChain) throws -> (width: Int, height: Int) {
        if chain.operations.isEmpty, source.codestream != nil { return (source.width, source.height) }
        let format = try chain.format(after: try source.pixelFormat())
        return (format.width, format.height)
    }
}
