import H2JJPEG
import H2JJPEGCodec
import H2JJob
import H2JSupport

/// The encode stage, the same for every image: libjpeg writes the frame header for the
/// format the pixel stage makes, then `segments` (the graft's, and any Multi-Picture or
/// gain-map segment), then the source's bands through the chain, then EOI. A source
/// whose own codestream stands for its pixels (a JPEG item, `ConversionEngine.codestream`)
/// is copied instead, the segments grafted into it, whenever the chain changes no rows;
/// with `--progressive` or `--optimize` its scans are first coded anew from its own
/// coefficients (`JPEGTranscoding`), losslessly.
///
/// `--progressive` and `--optimize` apply to every image (gain maps and auxiliary images
/// too). Rows from a source of rows come from an image held whole and have always had
/// optimised tables; planes, and rows made from them, stream with the standard tables
/// unless asked, when libjpeg holds their coefficients, which must fit the worker's
/// memory (`CoefficientMemoryError`).
enum ImageEncoder {
    static func encode(_ source: any ConversionEngine, chain: PixelChain, options: ConversionOptions, to fd: Int32, path: String,
                       strip: Bool, segments: (any JPEGSegmentSink) throws -> Void) throws {
        let coding = JPEGCoding(progressive: options.progressive, optimize: options.optimize)
        if chain.keepsCodestream, let codestream = source.codestream {
            let header = JPEGSegmentBytes()
            try segments(header)
            return try POSIX.writeAll(JPEGMarkerFilter.grafting(header.bytes, into: try recoded(codestream, coding, options), strip: strip),
                                      to: fd, path: path)
        }
        let input = try source.pixelFormat()
        let output = try chain.format(after: input)
        // A source of rows holds its image whole, so its rows always get optimised tables;
        // planes, and rows the chain makes from them (`--colorspace srgb` on the tile
        // engine's), stream unless the options make libjpeg hold the coefficients.
        let streamed = if case .planes = input.layout { true } else { false }
        let (components, subsampling) = switch output.layout {
        case .rows(let components, let subsampling), .planes(let components, let subsampling): (components, subsampling)
        }
        if streamed, coding.holdsCoefficients {
            try CoefficientMemoryError.check(JPEGCoefficientMemory.bytes(width: output.width, height: output.height,
                                                                         components: components, subsampling: subsampling),
                                             options: options)
        }
        let writer = try JPEGWriter(fd: fd)
        switch output.layout {
        case .rows:
            try writer.start(width: output.width, height: output.height, components: components, quality: options.quality,
                             subsampling: subsampling, coding: streamed ? coding : JPEGCoding(progressive: coding.progressive, optimize: true))
        case .planes:
            try writer.startRaw(width: output.width, height: output.height, components: components, quality: options.quality,
                                subsampling: subsampling, coding: coding)
        }
        try segments(writer)
        try source.emit(into: try chain.sink(input: input, into: writer))
        try writer.finish()
    }

    /// The size `source`'s pixels are encoded at, which its EXIF and XMP dimensions state:
    /// after the chain, or the codestream's own when it is copied.
    static func encodedSize(_ source: any ConversionEngine, chain: PixelChain) throws -> (width: Int, height: Int) {
        if chain.keepsCodestream, source.codestream != nil { return (source.width, source.height) }
        let format = try chain.format(after: try source.pixelFormat())
        return (format.width, format.height)
    }

    /// A copied codestream as `coding` asks: itself, or its scans coded anew.
    private static func recoded(_ codestream: JPEGSegments, _ coding: JPEGCoding, _ options: ConversionOptions) throws -> JPEGSegments {
        guard coding.holdsCoefficients else { return codestream }
        let factors = codestream.frameHeader?.components.map { (h: $0.horizontalSampling, v: $0.verticalSampling) } ?? []
        try CoefficientMemoryError.check(JPEGCoefficientMemory.bytes(width: codestream.frameHeader?.width ?? 0,
                                                                     height: codestream.frameHeader?.height ?? 0, factors: factors),
                                         options: options)
        guard let recoded = JPEGSegments(try JPEGTranscoding.transcode(codestream.bytes, coding: coding)) else {
            throw JPEGError(stage: "transcode", message: "libjpeg's output has no readable header")
        }
        return recoded
    }
}
