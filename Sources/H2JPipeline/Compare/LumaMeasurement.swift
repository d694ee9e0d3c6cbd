import H2JContainer
import H2JJPEGCodec
import H2JLibheif
import H2JSupport

/// `compare`'s Y-PSNR of its outputs, measured in a worker process (the `measure`
/// message): the source decoded once, as the converter's libheif engine decodes it, and
/// each JPEG decoded by libjpeg. Both decoders meet untrusted bytes, so neither runs in
/// `compare`'s own process; a crash or a hang there costs that file's comparison only.
struct LumaMeasurement: Equatable {
    /// The source's upright size, as libheif decodes it.
    let width: Int
    let height: Int
    /// Y-PSNR of each JPEG against it (`LumaPSNR`), in order: +infinity for identical luma.
    let decibels: [Double]

    /// Measures each of `outputs` (a mode's name and its JPEG) against `job.source`, in
    /// the worker: a `mini` file is read, and decoded, as the HEIF it stands for. Throws a
    /// `CompareError` naming the step (and the mode) at fault.
    static func measure(_ job: Job, outputs: [(name: String, jpeg: [UInt8])],
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

extension Result<LumaMeasurement, CompareError> {
    /// Most JPEGs one measurement compares (compare has two modes).
    static var maxOutputs: Int { 16 }

    /// The `measured` message's body: a flag, then the size and the decibels' bits, or the reason.
    func encode(to out: inout WireWriter) {
        switch self {
        case .success(let measurement):
            out.bool(true)
            out.int(measurement.width)
            out.int(measurement.height)
            out.int(measurement.decibels.count)
            for value in measurement.decibels { out.int(Int(Int64(bitPattern: value.bitPattern))) }
        case .failure(let error):
            out.bool(false)
            out.string(error.description)
        }
    }

    init(from reader: inout WireReader) throws(WireError) {
        guard try reader.bool() else {
            self = .failure(CompareError(try reader.string()))
            return
        }
        let width = try reader.int(), height = try reader.int(), count = try reader.int()
        guard width > 0, height > 0, (0...Self.maxOutputs).contains(count) else { throw WireError(reason: "a measurement out of range") }
        let decibels = try (0..<count).map { _ throws(WireError) in Double(bitPattern: UInt64(bitPattern: Int64(try reader.int()))) }
        guard !decibels.contains(where: \.isNaN) else { throw WireError(reason: "a measurement that is not a number") }
        self = .success(LumaMeasurement(width: width, height: height, decibels: decibels))
    }
}

/// The outputs a `measure` message carries: each mode's name and JPEG.
enum MeasuredOutputs {
    static func encode(_ outputs: [(name: String, jpeg: [UInt8])], to out: inout WireWriter) {
        out.int(outputs.count)
        for (name, jpeg) in outputs {
            out.string(name)
            out.data(jpeg)
        }
    }

    static func decode(from reader: inout WireReader) throws(WireError) -> [(name: String, jpeg: [UInt8])] {
        let count = try reader.int()
        guard (0...Result<LumaMeasurement, CompareError>.maxOutputs).contains(count) else { throw WireError(reason: "\(count) outputs to measure") }
        return try (0..<count).map { _ throws(WireError) in (name: try reader.string(), jpeg: try reader.data()) }
    }
}
