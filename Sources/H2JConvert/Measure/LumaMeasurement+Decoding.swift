import H2JContainer
import H2JJPEGCodec
import H2JLibheif
import H2JSupport

import H2JJob

extension LumaMeasurement {
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
