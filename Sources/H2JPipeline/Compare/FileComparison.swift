import H2JContainer
import H2JJPEGCodec
import H2JLibheif
import H2JMetadata
import H2JSupport
import H2JTiles

/// One HEIF file converted in both modes, in memory, by the real `Converter`: what each
/// output weighs, how long it took, what metadata it holds (read back from the JPEG),
/// and how close its pixels are to the decoded source (Y-PSNR).
///
/// Memory: besides the two JPEGs, the source is decoded whole by libheif (3 bytes per
/// pixel) and each output is decoded whole in turn (3 bytes per pixel): acceptable for
/// a diagnostic, unlike the converter's bounded memory.
struct FileComparison {
    /// What the source holds.
    struct Source {
        /// File size.
        let bytes: Int
        /// The upright size, as libheif decodes it.
        let width: Int
        let height: Int
        /// Its own metadata; `iccBytes` is its own profile, not one built from nclx.
        let metadata: MetadataSummary
        /// Colour given only as nclx: the outputs carry a profile built for it.
        let nclxOnly: Bool
    }

    /// One mode's output.
    struct Output {
        let mode: MetadataMode
        /// The converter's result: engine, ms, warnings.
        let result: ConversionResult
        let bytes: Int
        let metadata: MetadataSummary
        let exifTags: EXIFTagTally
        /// +infinity when the luma is identical to the source's.
        let yPSNR: Double
    }

    /// The modes in column order: lossless-metadata, then lossy.
    static let modes: [MetadataMode] = [.keep, .strip]

    let path: String
    let source: Source
    /// One per entry of `modes`, in that order.
    let outputs: [Output]

    /// Converts `path` in each mode with `options` (whose `metadata` is overridden), then
    /// measures. Throws the first failure, naming the mode or step.
    ///
    /// `warmUp`: convert once more first and discard it, so that the one-time costs of a
    /// process's first conversion (decoder contexts, lazy binding, the file's pages) are
    /// not charged to the first mode. Without it, a 512×384 sample measured 52 ms in the
    /// first mode and 17 ms in the second.
    init(path: String, options: ConversionOptions, decoders: TileDecoderPool, warmUp: Bool = false) throws {
        guard path != "-" else { throw CompareError("compare reads files, not stdin ('-')") }
        let file = try SourceFile(path: path)
        let format = ImageFormat.sniff(try file.prefix(ImageFormat.sniffLength))
        guard format.isHEIF else { throw CompareError(Planner.notHEIF(format, source: path, output: nil).reason ?? "not a HEIF image") }

        if warmUp { _ = try Self.convert(path, Self.modes[0], options, decoders) }
        let attempts = try Self.modes.map { mode in (mode: mode, conversion: try Self.convert(path, mode, options, decoders)) }
        let failures = attempts.compactMap { mode, conversion in
            conversion.result.status == .converted ? nil : (mode, conversion.result.reason ?? "conversion failed")
        }
        if let (mode, reason) = failures.first {
            // A defect of the file fails both modes alike: say it once, without a mode.
            let same = failures.count == attempts.count && failures.allSatisfy { $0.1 == reason }
            throw CompareError(same ? reason : "\(mode.name): \(reason)")
        }

        // A `mini` file is read, and decoded for reference, as the HEIF it stands for.
        let container = try MinimizedImage.translating(file.byteSource) ?? file.byteSource
        let structure = try HEIFStructure.read(from: container)
        let primary = try structure.primaryImage()
        // The reference decode is libheif's: refuse what would reach its weak spots, and
        // what it cannot decode at all (heic2jpg's own JPEG-item and `unci` engines would
        // be measured against themselves).
        try structure.checkDerivation(from: container, maxPixels: options.maxPixels)
        guard !HEIFStructure.standaloneTypes.contains(primary.itemType) else {
            throw CompareError("no Y-PSNR: libheif 1.15, the reference decoder, cannot decode \(HEIFError.codecName(primary.itemType)); "
                               + "convert the file instead")
        }
        let items = try SourceMetadata(storedIn: structure, primary: primary.id, source: container)
        let colour = SourceMetadata.colour(structure, primary.id)
        let sourceMetadata = MetadataSummary(source: items)
        // libheif reads through the file's descriptor.
        let decoded = try withExtendedLifetime(file) {
            try Self.decodeSource(container, monochrome: primary.isMonochrome, options: options)
        }

        self.path = path
        source = Source(bytes: file.size, width: decoded.width, height: decoded.height, metadata: sourceMetadata,
                        nclxOnly: colour.icc == nil && colour.nclx != nil)
        outputs = try attempts.map { mode, conversion in
            let (result, jpeg) = conversion
            let metadata = MetadataSummary(jpeg: jpeg)
            let psnr: Double
            do {
                psnr = try LumaPSNR.measure(source: decoded, against: try DecodedJPEG(jpeg))
            } catch {
                throw CompareError("\(mode.name): Y-PSNR: \(error)")
            }
            return Output(mode: mode, result: result, bytes: jpeg.count, metadata: metadata,
                          exifTags: EXIFTagTally(source: sourceMetadata.exifTags, output: metadata.exifTags), yPSNR: psnr)
        }
    }

    /// One conversion by the real `Converter`, its output captured in memory (empty when
    /// it failed).
    private static func convert(_ path: String, _ mode: MetadataMode, _ options: ConversionOptions,
                                _ decoders: TileDecoderPool) throws(CompareError)
        -> (result: ConversionResult, jpeg: [UInt8]) {
        var modeOptions = options
        modeOptions.metadata = mode
        let output = try MemoryOutputFile()
        let destination = PublishedOutput(publisher: OutputPublisher(), standardOutput: output.descriptor)
        let result = Converter(options: modeOptions, decoders: decoders, destination: destination)
            .run(Job(source: .path(path), output: .standardStream, action: .convert))
        return (result, result.status == .converted ? try output.contents() : [])
    }

    /// The source decoded as the converter's libheif engine decodes it: upright 8-bit RGB
    /// (or gray), alpha flattened onto `options.background`.
    private static func decodeSource(_ source: ByteSource, monochrome: Bool, options: ConversionOptions) throws -> DecodedImage {
        let context = LibheifContext(maxDimension: ConversionOptions.maxDimension, decodingThreads: options.decodingThreads)
        do {
            try context.read(source)
            return try DecodedImage(decoding: try context.primaryHandle(), monochrome: monochrome, background: options.background)
        } catch {
            throw CompareError("decoding the source for Y-PSNR: \(error)")
        }
    }
}
