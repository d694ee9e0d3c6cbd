import H2JColour
import H2JContainer
import H2JJPEG
import H2JJPEGCodec
import H2JLibheif
import H2JSupport

import H2JJob

extension LumaMeasurement {
    /// Measures each of `outputs` (a mode's name and its JPEG) against `job.source`, in
    /// the worker: a `mini` file is read, and decoded, as the HEIF it stands for. With
    /// `pictures`, also makes what `compare --html` shows (`ComparisonPictures`). Throws a
    /// `CompareError` naming the step (and the mode) at fault.
    package static func measure(_ job: ConversionJob, outputs: [(name: String, jpeg: [UInt8])],
                                options: ConversionOptions, pictures: Bool = false) throws(CompareError) -> LumaMeasurement {
        guard case .path = job.source, let file = job.file else { throw CompareError("compare reads files, not stdin ('-')") }
        let decoded: DecodedImage
        let profile: [UInt8]?
        do {
            let container = try MinimizedImage.translating(file.byteSource) ?? file.byteSource
            let structure = try HEIFStructure.read(from: container)
            let primary = try structure.primaryImage()
            let colour = SourceMetadata.colour(structure, primary.id)
            profile = colour.icc ?? colour.nclx.flatMap { ICCFromNCLX.profile(for: $0) }
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
        guard pictures else {
            let decibels = try outputs.map { (name, jpeg) throws(CompareError) in
                do {
                    return try LumaPSNR.measure(source: decoded, against: try DecodedJPEG(jpeg))
                } catch {
                    throw CompareError("\(name): Y-PSNR: \(error)")
                }
            }
            return LumaMeasurement(width: decoded.width, height: decoded.height, decibels: decibels)
        }
        return try pictured(decoded, profile: profile, outputs: outputs)
    }

    /// The measurement with its pictures: the source's preview, then for each output its
    /// Y-PSNR and pictures from one pass over both (`DifferencePictures`), the crops at the
    /// spot of the source with the most detail (`DetailWindow`).
    private static func pictured(_ decoded: DecodedImage, profile: [UInt8]?,
                                 outputs: [(name: String, jpeg: [UInt8])]) throws(CompareError) -> LumaMeasurement {
        let preview: PicturePixels
        let source: [UInt8]
        do {
            preview = try PicturePixels.reduced(width: decoded.width, height: decoded.height, components: decoded.components,
                                                to: ComparisonPictures.fitted(width: decoded.width, height: decoded.height)) { sink in
                try decoded.forEachBand { rows, stride, count in try sink.writeRows(rows, stride: stride, count: count) }
            }
            source = try SmallJPEG.encode(preview, quality: 85, subsampling: .s420, profile: profile)
        } catch {
            throw CompareError("the source's preview: \(error)")
        }
        let centre = DetailWindow.centre(of: preview, side: ComparisonPictures.cropSide * preview.width / decoded.width)
        var decibels: [Double] = []
        var pictures: [ComparisonPictures.Output] = []
        for (name, bytes) in outputs {
            do {
                let jpeg = try DecodedJPEG(bytes)
                let rect = DetailWindow.rect(centre: centre, width: jpeg.width, height: jpeg.height, side: ComparisonPictures.cropSide)
                let difference = DifferencePictures(width: jpeg.width, height: jpeg.height, sourceComponents: decoded.components,
                                                    components: jpeg.components, cropRect: rect)
                decibels.append(try LumaPSNR.measure(source: decoded, against: jpeg, observe: difference.add))
                let reduced = try PicturePixels.reduced(width: jpeg.width, height: jpeg.height, components: jpeg.components,
                                                        to: ComparisonPictures.fitted(width: jpeg.width, height: jpeg.height)) { sink in
                    for y in stride(from: 0, to: jpeg.height, by: 16) {
                        try sink.writeRows(jpeg.row(y), stride: jpeg.width * jpeg.components, count: min(16, jpeg.height - y))
                    }
                }
                let own = JPEGSegments(bytes)?.iccProfile
                pictures.append(ComparisonPictures.Output(
                    preview: try SmallJPEG.encode(reduced, quality: 85, subsampling: .s420, profile: own),
                    crop: try SmallJPEG.encode(difference.crop, quality: 92, subsampling: .s444, profile: own),
                    sourceCrop: try SmallJPEG.encode(difference.sourceCrop, quality: 92, subsampling: .s444, profile: profile),
                    heatMap: try SmallJPEG.encode(difference.heatMap, quality: 85, subsampling: .s444, profile: nil),
                    cropRect: rect, meanDifference: difference.meanDifference, maxDifference: difference.maxDifference))
            } catch {
                throw CompareError("\(name): pictures: \(error)")
            }
        }
        return LumaMeasurement(width: decoded.width, height: decoded.height, decibels: decibels,
                               pictures: ComparisonPictures(source: source, outputs: pictures))
    }
}
