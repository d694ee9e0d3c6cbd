/// Describes a JPEG from its header segments (`JPEGSegments`): the frame header, APP1
/// EXIF and XMP (standard packet, and Extended XMP chunks counted), APP2 ICC chunks.
/// The entropy-coded data is never read.
enum JPEGDescriber {
    static let exifSignature = Array("Exif\0\0".utf8)
    static let iccSignature = Array("ICC_PROFILE\0".utf8)
    /// XMP Part 3 §1.1.3.1: the namespace, then a 32-byte GUID, full length and offset.
    static let extendedXMPSignature = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    static let extendedXMPHeaderBytes = extendedXMPSignature.count + 40

    /// One APP2 chunk of an ICC profile (ICC.1 Annex B.4): 1-based sequence number and count.
    struct ICCChunk {
        let sequence: UInt8
        let count: UInt8
        let bytes: ArraySlice<UInt8>
    }

    static func describe(_ source: ByteSource) throws(InspectError) -> ImageProperties {
        guard let header = JPEGSegments.read(from: source) else {
            throw InspectError("not a well-formed JPEG: its header segments do not lead to a scan")
        }
        var properties = ImageProperties(format: "jpeg", byteSize: source.size)
        var frame: JPEGFrameHeader?
        var exif: [UInt8]?, xmp: [UInt8]?
        var iccChunks: [ICCChunk] = []
        for segment in header.segments {
            let marker = segment.marker
            guard marker == 0xE1 || marker == 0xE2 || (frame == nil && JPEGFrameHeader.isFrameMarker(marker)),
                  let payload = JPEGSegments.payload(of: segment, in: source) else { continue }
            if JPEGFrameHeader.isFrameMarker(marker) {
                frame = JPEGFrameHeader.parse(marker: marker, payload: payload)
            } else if marker == 0xE1, payload.starts(with: exifSignature) {
                exif = exif ?? payload
            } else if marker == 0xE1, payload.starts(with: XMPForJPEG.header) {
                xmp = xmp ?? Array(payload.dropFirst(XMPForJPEG.header.count))
            } else if marker == 0xE1, payload.starts(with: extendedXMPSignature) {
                properties.metadata.extendedXMP = (properties.metadata.extendedXMP ?? 0) + max(0, payload.count - extendedXMPHeaderBytes)
            } else if marker == 0xE2, payload.starts(with: iccSignature), let sequence = payload.dropFirst(12).first,
                      let count = payload.dropFirst(13).first {
                iccChunks.append(ICCChunk(sequence: sequence, count: count, bytes: payload.dropFirst(14)))
            }
        }
        guard let frame else { throw InspectError("not a well-formed JPEG: no readable frame header (SOF) before the scan") }

        var primary = ImageProperties.Primary(bitDepth: frame.precision, chroma: frame.chroma)
        if let exif {
            do {
                let directory = try EXIFDirectory(app1Payload: exif)
                properties.exifGroups = EXIFSummary.groups(directory)
                primary.exifOrientation = directory.unsignedInteger(.ifd0, EXIFTag.orientation).map(Int.init)
            } catch {
                properties.warnings.append("EXIF: \(error)")
            }
        }
        let icc = profile(from: iccChunks, warnings: &properties.warnings)
        primary.icc = icc.map(ICCProfileInfo.init(profile:))
        properties.metadata.exif = exif.map { $0.count - exifSignature.count }
        properties.metadata.xmp = xmp?.count
        properties.metadata.icc = icc?.count
        properties.provenance = xmp.flatMap(ProvenanceMark.init(xmp:))

        var image = ImageProperties.Image(type: "jpeg", size: ImageSize(width: frame.width, height: frame.height))
        // Viewers turn a JPEG by its EXIF Orientation; 5–8 swap width and height.
        let turned = (5...8).contains(primary.exifOrientation ?? 1)
        image.displaySize = turned ? ImageSize(width: frame.height, height: frame.width) : image.size
        image.isPrimary = true
        image.components = frame.components.count
        image.coding = frame.coding
        properties.images = [image]
        properties.primary = primary
        return properties
    }

    /// The profile reassembled from its chunks, as libjpeg's `jpeg_read_icc_profile`
    /// accepts them: every chunk of one count, each sequence number 1…count exactly
    /// once; otherwise nil and a warning.
    static func profile(from chunks: [ICCChunk], warnings: inout [String]) -> [UInt8]? {
        guard let count = chunks.first?.count else { return nil }
        let sequences = chunks.map(\.sequence).sorted()
        guard count > 0, chunks.allSatisfy({ $0.count == count }), sequences == Array(1...count) else {
            warnings.append("ICC profile: its \(chunks.count) APP2 chunk(s) do not form a whole profile (numbered 1…\(count) once each); ignored")
            return nil
        }
        return chunks.sorted { $0.sequence < $1.sequence }.flatMap(\.bytes)
    }
}
