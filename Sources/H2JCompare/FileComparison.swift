import H2JContainer
import H2JBatch
import H2JJPEG
import H2JJob
import H2JMetadata
import H2JSupport

/// One HEIF file converted in both modes, in memory, by the real `Converter` in a worker
/// process (`WorkerSupervisor`, as `convert` runs it): what each output weighs, how long
/// it took, what metadata it holds (read back from the JPEG by heic2jpg's own parsers),
/// and how close its pixels are to the decoded source (Y-PSNR, measured in a worker too:
/// `LumaMeasurement`). No decoder meets the file in this process, so a file that crashes
/// or hangs one fails its own comparison, with the worker's reason.
///
/// Memory, in the worker: besides the two JPEGs, the source is decoded whole by libheif
/// (3 bytes per pixel) and each output is decoded whole in turn (3 bytes per pixel):
/// acceptable for a diagnostic, unlike the converter's bounded memory.
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
        /// Every EXIF, XMP and ICC tag, for `compare --html`; empty without pictures.
        let tags: [MetadataTag]
    }

    /// One output: a variant's conversion in one mode.
    struct Output {
        let variant: CompareVariant
        let mode: MetadataMode
        /// The size it was encoded at, as its own frame header says.
        let width: Int
        let height: Int
        /// The converter's result: engine, warnings.
        let result: ConversionResult
        /// The conversion's time, in the worker and back, in milliseconds: fractional,
        /// since a small file converts in less than one.
        let milliseconds: Double
        let bytes: Int
        let metadata: MetadataSummary
        let exifTags: EXIFTagTally
        /// +infinity when the luma is identical to the source's.
        let yPSNR: Double
        /// Every EXIF, XMP and ICC tag, for `compare --html`; empty without pictures.
        let tags: [MetadataTag]
    }

    /// The modes in column order: keep, then strip.
    static let modes: [MetadataMode] = [.keep, .strip]

    let path: String
    let source: Source
    /// What each mode was converted at.
    let variants: [CompareVariant]
    /// One per variant and mode: each variant's modes in `modes` order, variants in the
    /// order given.
    let outputs: [Output]
    /// What `compare --html` shows, checked (`PictureCheck`); nil unless asked for.
    let pictures: ComparisonPictures?

    /// Converts `path` at each of `variants` in each mode, with `options` for the rest, in
    /// `workers`, whose `-o -` outputs land in `output`, then measures. Throws the first
    /// failure, naming the mode (and the variant, when there are several) or step.
    ///
    /// `warmUp`: convert once more first and discard it, so that the one-time costs of a
    /// worker's first conversion (decoder contexts, lazy binding, the file's pages) are
    /// not charged to the first mode (a 512×384 sample measured 52 ms in the first mode
    /// and 17 ms in the second without it); its failure is the file's.
    ///
    /// `pictures`: also make `compare --html`'s pictures (in the worker) and tag lists.
    init(path: String, variants: [CompareVariant], options: ConversionOptions, workers: WorkerSupervisor, output: MemoryOutputFile,
         warmUp: Bool = false, pictures: Bool = false) throws {
        guard path != "-" else { throw CompareError("compare reads files, not stdin ('-')") }
        let file = try SourceFile(path: path)
        let format = ImageFormat.sniff(try file.prefix(ImageFormat.sniffLength))
        guard format.isHEIF else { throw CompareError(Planner.notHEIF(format, source: path, output: nil).reason ?? "not a HEIF image") }
        let job = Job(source: .path(path), output: .standardStream, action: .convert, file: file)

        if warmUp {
            // A file the warm-up cannot convert fails the same way again: say so at once,
            // rather than crash or wait out --timeout once per mode.
            let (result, _, _) = try Self.convert(job, variants[0].options(options, Self.modes[0]), workers, output)
            guard result.status == .converted else { throw CompareError(result.reason ?? "conversion failed") }
        }
        let attempts = try variants.flatMap { variant in
            try Self.modes.map { mode in
                (variant: variant, mode: mode, conversion: try Self.convert(job, variant.options(options, mode), workers, output))
            }
        }
        let failures = attempts.compactMap { attempt in
            attempt.conversion.result.status == .converted
                ? nil : (Self.label(attempt.variant, attempt.mode, among: variants), attempt.conversion.result.reason ?? "conversion failed")
        }
        if let (label, reason) = failures.first {
            // A defect of the file fails every output alike: say it once, without a label.
            let same = failures.count == attempts.count && failures.allSatisfy { $0.1 == reason }
            throw CompareError(same ? reason : "\(label): \(reason)")
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
        let measured = try workers.measure(job, outputs: attempts.map { (Self.label($0.variant, $0.mode, among: variants), $0.conversion.jpeg) },
                                           options: options, pictures: pictures).get()

        self.path = path
        self.variants = variants
        source = Source(bytes: file.size, width: measured.width, height: measured.height, metadata: sourceMetadata,
                        nclxOnly: colour.icc == nil && colour.nclx != nil, tags: pictures ? TagListing.source(items) : [])
        outputs = try zip(attempts, measured.decibels).map { attempt, psnr throws(CompareError) in
            let (result, jpeg, milliseconds) = attempt.conversion
            let metadata = MetadataSummary(jpeg: jpeg)
            // The size is read from the JPEG this process holds, not taken from the worker's result.
            guard let frame = JPEGSegments(jpeg)?.frameHeader else {
                throw CompareError("\(Self.label(attempt.variant, attempt.mode, among: variants)): the output's frame header cannot be read")
            }
            return Output(variant: attempt.variant, mode: attempt.mode, width: frame.width, height: frame.height,
                          result: result, milliseconds: milliseconds, bytes: jpeg.count, metadata: metadata,
                          exifTags: EXIFTagTally(source: sourceMetadata.exifTags, output: metadata.exifTags), yPSNR: psnr,
                          tags: pictures ? TagListing.jpeg(jpeg) : [])
        }
        if pictures {
            guard let made = measured.pictures else { throw CompareError("the decoder process sent no pictures") }
            try PictureCheck.check(made, source: (measured.width, measured.height), outputs: outputs.map { ($0.width, $0.height) })
            self.pictures = made
        } else {
            self.pictures = nil
        }
    }

    /// One conversion by the real `Converter` in a worker, timed (not truncated to whole
    /// milliseconds, which made a small file's time 0), its output captured in memory
    /// (empty when it failed).
    private static func convert(_ job: Job, _ options: ConversionOptions, _ workers: WorkerSupervisor,
                                _ output: MemoryOutputFile) throws(CompareError)
        -> (result: ConversionResult, jpeg: [UInt8], milliseconds: Double) {
        let start = POSIX.monotonicSeconds()
        let result = workers.run(job, options: options)
        let milliseconds = (POSIX.monotonicSeconds() - start) * 1000
        let jpeg = try output.take()
        return (result, result.status == .converted ? jpeg : [], milliseconds)
    }

    /// How errors name one output: its mode, with its quality and box when `variants`
    /// holds several (`q80 2048 keep`).
    static func label(_ variant: CompareVariant, _ mode: MetadataMode, among variants: [CompareVariant]) -> String {
        guard variants.count > 1 else { return mode.rawValue }
        return "q\(variant.quality) " + (variant.maxSize.map { "\($0) " } ?? "") + mode.rawValue
    }
}
