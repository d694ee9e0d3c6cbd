import H2JColour
import H2JJPEG
import H2JJPEGCodec
import H2JSupport

/// `--colorspace srgb`: RGB pixels converted from the source's profile to sRGB by
/// LittleCMS (`SRGBTransform`), band by band. RGB rows stay rows of their subsampling;
/// the tile engine's JFIF YCbCr 4:2:0 planes become RGB rows (`JFIFPlanesToRGB`) of
/// `sampling`. Gray passes unchanged: its sink is the next one.
struct SRGBConversion: PixelOperation {
    private let transform: Result<SRGBTransform, ColourConversionError>
    /// The chroma subsampling of the rows made from planes.
    let sampling: ChromaSubsampling

    init(profile: [UInt8], sampling: ChromaSubsampling) {
        transform = Result { () throws(ColourConversionError) in try SRGBTransform(from: profile) }
        self.sampling = sampling
    }

    func format(after input: PixelFormat) throws -> PixelFormat {
        guard input.components == 3 else { return input }
        _ = try transform.get()
        guard case .planes(_, let subsampling) = input.layout else { return input }
        // `ChromaUpsampling` comes after this step: planes reach it at the tile engine's 4:2:0.
        guard subsampling == .s420 else { throw ColourConversionError(reason: "the step takes 4:2:0 planes, not \(subsampling.rawValue)") }
        return PixelFormat(width: input.width, height: input.height, layout: .rows(components: 3, subsampling: sampling))
    }

    func sink(input: PixelFormat, into next: any PixelSink) -> any PixelSink {
        // `format(after:)` has thrown for colour without a transform.
        guard input.components == 3, case .success(let transform) = transform else { return next }
        switch input.layout {
        case .rows: return RowsSink(width: input.width, transform: transform, next: next)
        case .planes: return PlanesSink(planes: JFIFPlanesToRGB(width: input.width, height: input.height), transform: transform, next: next)
        }
    }

    /// Each band of RGB rows converted into a buffer of its own, then handed on.
    private struct RowsSink: PixelSink {
        let width: Int
        let transform: SRGBTransform
        let next: any PixelSink

        var rawRowsPerCall: Int { next.rawRowsPerCall }

        func writeRows(_ rows: UnsafePointer<UInt8>, stride: Int, count: Int) throws {
            let rowBytes = width * 3
            var converted = [UInt8](repeating: 0, count: rowBytes * count)
            converted.withUnsafeMutableBufferPointer { out in
                for row in 0..<count { transform.apply(rows + row * stride, into: out.baseAddress! + row * rowBytes, pixels: width) }
            }
            try converted.withUnsafeBufferPointer { try next.writeRows($0.baseAddress!, stride: rowBytes, count: count) }
        }

        func writeRaw(planes _: [UnsafePointer<UInt8>], strides _: [Int], rows _: Int) throws {
            throw RowSinkError()
        }
    }

    /// YCbCr 4:2:0 row groups made RGB (one group held back for the chroma filter), then
    /// converted in place and handed on as rows.
    private struct PlanesSink: PixelSink {
        let planes: JFIFPlanesToRGB
        let transform: SRGBTransform
        let next: any PixelSink

        var rawRowsPerCall: Int { JFIFPlanesToRGB.rowsPerGroup }

        func writeRows(_: UnsafePointer<UInt8>, stride _: Int, count _: Int) throws {
            throw BandKindError()
        }

        func writeRaw(planes input: [UnsafePointer<UInt8>], strides: [Int], rows: Int) throws {
            try planes.take(input, strides: strides, rows: rows) { rgb, count in
                transform.apply(rgb, into: rgb, pixels: planes.width * count)
                try next.writeRows(rgb, stride: planes.width * 3, count: count)
            }
        }
    }
}

/// Rows reached a step that was promised raw planes: a bug, never the file's fault.
private struct BandKindError: CodedError, CustomStringConvertible {
    var code: ErrorCode { .encodeFailed }
    var description: String { "an engine wrote rows where raw planes were expected" }
}
