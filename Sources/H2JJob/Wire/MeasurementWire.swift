/// How `compare`'s `measure` and `measured` messages carry their bodies.
extension Result<LumaMeasurement, CompareError> {
    /// Most JPEGs one measurement compares (compare has two modes).
    package static var maxOutputs: Int { 16 }

    /// The `measured` message's body: a flag, then the size, the decibels' bits and the
    /// pictures if any, or the reason.
    package func encode(to out: inout WireWriter) {
        switch self {
        case .success(let measurement):
            out.bool(true)
            out.int(measurement.width)
            out.int(measurement.height)
            out.int(measurement.decibels.count)
            for value in measurement.decibels { out.int(Int(Int64(bitPattern: value.bitPattern))) }
            out.optional(measurement.pictures) { $1.encode(to: &$0) }
        case .failure(let error):
            out.bool(false)
            out.string(error.description)
        }
    }

    package init(from reader: inout WireReader) throws(WireError) {
        guard try reader.bool() else {
            self = .failure(CompareError(try reader.string()))
            return
        }
        let width = try reader.int(), height = try reader.int(), count = try reader.int()
        guard width > 0, height > 0, (0...Self.maxOutputs).contains(count) else { throw WireError(reason: "a measurement out of range") }
        let decibels = try (0..<count).map { _ throws(WireError) in Double(bitPattern: UInt64(bitPattern: Int64(try reader.int()))) }
        guard !decibels.contains(where: \.isNaN) else { throw WireError(reason: "a measurement that is not a number") }
        let pictures = try reader.optional { reader throws(WireError) in try ComparisonPictures(from: &reader) }
        guard pictures.map({ $0.outputs.count == count }) ?? true else { throw WireError(reason: "pictures that do not match the outputs") }
        self = .success(LumaMeasurement(width: width, height: height, decibels: decibels, pictures: pictures))
    }
}

/// The outputs a `measure` message carries: whether pictures are wanted, then each
/// mode's name and JPEG.
package enum MeasuredOutputs {
    package static func encode(_ outputs: [(name: String, jpeg: [UInt8])], pictures: Bool, to out: inout WireWriter) {
        out.bool(pictures)
        out.int(outputs.count)
        for (name, jpeg) in outputs {
            out.string(name)
            out.data(jpeg)
        }
    }

    package static func decode(from reader: inout WireReader) throws(WireError) -> (outputs: [(name: String, jpeg: [UInt8])], pictures: Bool) {
        let pictures = try reader.bool()
        let count = try reader.int()
        guard (0...Result<LumaMeasurement, CompareError>.maxOutputs).contains(count) else { throw WireError(reason: "\(count) outputs to measure") }
        return (try (0..<count).map { _ throws(WireError) in (name: try reader.string(), jpeg: try reader.data()) }, pictures)
    }
}
