import H2JContainer
import H2JJPEGCodec
import H2JLibheif
import H2JSupport

/// `compare`'s Y-PSNR of its outputs, measured in a worker process (the `measure`
/// message): the source decoded once, as the converter's libheif engine decodes it, and
/// each JPEG decoded by libjpeg. Both decoders meet untrusted bytes, so neither runs in
/// `compare`'s own process; a crash or a hang there costs that file's comparison only.
package struct LumaMeasurement: Equatable {
    /// The source's upright size, as libheif decodes it.
    package let width: Int
    package let height: Int
    /// Y-PSNR of each JPEG against it (`LumaPSNR`), in order: +infinity for identical luma.
    package let decibels: [Double]

    package init(width: Int, height: Int, decibels: [Double]) {
        self.width = width
        self.height = height
        self.decibels = decibels
    }

    /// Measures each of `outputs` (a mode's name and its JPEG) against `job.source`, in
    /// the worker: a `mini` file is read, and decoded, as the HEIF it stands for. Throws a
    /// `CompareError` naming the step (and the mode) at fault.
    package static func measure(_ job: ConversionJob, outputs: [(name: String, jpeg: [UInt8])],
                        options: ConversionOptions) throws(CompareError) -> LumaMeasurement {
        guard case .path = job.source, let file = job.file else { throw CompareError("compare reads files, not stdin ('-')") }
        let decoded: DecodedImage
        do {
            let container = try MinimizedImage.translating(file.byteSource) ?? file.byteSource
            let primary = try HEIFStructure.read(from: container).primaryImage()
            // libheif reads through the file's descriptor.
            decoded = try withExtendedLifetime(file) {
                let context = LibheifContext(maxDimension: ConversionOptions.maxDimension, decodingThreads: options.decodingThreads)
                try context.read(container)
                return try DecodedImage(decoding: try context.primaryHandle(), monochrome: primary.isMonochrome,
                                        background: options.background)
            }
        } catch {
            throw CompareError("decoding the source for Y-PSNR: \(error)")
        }
        let decibels = try outputs.map { (name, jpeg) throws(CompareError) in
            do {
                return try LumaPSNR.measure(source: decoded, against: try DecodedJPEG(jpeg))
            } catch {
                throw CompareError("\(name): Y-PSNR: \(error)")
            }
        }
        return LumaMeasurement(width: decoded.width, height: decoded.height, decibels: decibels)
    }
}
