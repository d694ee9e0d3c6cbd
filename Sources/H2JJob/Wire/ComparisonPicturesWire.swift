/// How a `measured` message carries `compare --html`'s pictures: each picture's bytes,
/// the crop's rectangle and the differences' bits.
extension ComparisonPictures {
    package func encode(to out: inout WireWriter) {
        out.data(source)
        out.int(outputs.count)
        for output in outputs {
            for picture in [output.preview, output.crop, output.sourceCrop, output.heatMap] { out.data(picture) }
            for value in [output.cropRect.x, output.cropRect.y, output.cropRect.width, output.cropRect.height] { out.int(value) }
            out.int(Int(Int64(bitPattern: output.meanDifference.bitPattern)))
            out.int(output.maxDifference)
        }
    }

    /// Reads what `encode` wrote; the sizes are checked here, what the pictures hold by the parent.
    package init(from reader: inout WireReader) throws(WireError) {
        func picture(_ reader: inout WireReader) throws(WireError) -> [UInt8] {
            let bytes = try reader.data()
            guard bytes.count <= Self.maxPictureBytes else { throw WireError(reason: "a \(bytes.count)-byte picture") }
            return bytes
        }
        source = try picture(&reader)
        let count = try reader.int()
        guard (0...Result<LumaMeasurement, CompareError>.maxOutputs).contains(count) else { throw WireError(reason: "pictures of \(count) outputs") }
        outputs = try (0..<count).map { _ throws(WireError) in
            let (preview, crop, sourceCrop, heatMap) = (try picture(&reader), try picture(&reader), try picture(&reader), try picture(&reader))
            let rect = PictureRect(x: try reader.int(), y: try reader.int(), width: try reader.int(), height: try reader.int())
            let mean = Double(bitPattern: UInt64(bitPattern: Int64(try reader.int())))
            let largest = try reader.int()
            guard mean.isFinite, (0...255).contains(mean), (0...255).contains(largest) else { throw WireError(reason: "a difference out of range") }
            return Output(preview: preview, crop: crop, sourceCrop: sourceCrop, heatMap: heatMap, cropRect: rect,
                          meanDifference: mean, maxDifference: largest)
        }
    }
}
