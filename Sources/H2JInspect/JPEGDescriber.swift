import H2JColour
import H2JContainer
import H2JJPEG
import H2JMetadata
import H2JSupport

/// Describes a JPEG from its header segments (`JPEGSegments`): the frame header, APP1
/// EXIF and XMP (the standard packet, and Extended XMP chunks counted), APP2 ICC chunks.
/// The entropy-coded data is never looked at.
enum JPEGDescriber {
    /// After `JPEGAPPSignature.extendedXMP`, each chunk has a 32-byte GUID, the full length and its offset.
    static let extendedXMPChunkHeaderBytes = 40
    /// The header is looked for in the first MiB, then in 4 times as much, up to the whole file.
    static let firstRead = 1 << 20

    static func describe(_ source: ByteSource) throws(InspectError) -> ImageProperties {
        let header = try segments(source)
        var properties = ImageProperties(format: "jpeg", byteSize: source.size)
        guard let frame = header.frameHeader else { throw InspectError("not a well-formed JPEG: no readable frame header (SOF) before the scan") }

        var primary = ImageProperties.Primary(bitDepth: frame.precision, chroma: frame.chroma)
        if let tiff = header.exifTIFF {
            EXIFSummary.describe({ () throws(EXIFError) in try EXIFDirectory(tiff: tiff) }, into: &properties, primary: &primary)
        }
        let icc = header.iccProfile
        if icc == nil, case let chunks = header.payloads(0xE2, signature: JPEGAPPSignature.icc), !chunks.isEmpty {
            properties.warnings.append("ICC profile: its \(chunks.count) APP2 chunk(s) are not numbered 1…count once each; ignored")
        }
        primary.icc = icc.map(ICCProfileInfo.init(profile:))
        let xmp = header.xmpPacket
        let extended = header.payloads(0xE1, signature: JPEGAPPSignature.extendedXMP)
        properties.metadata = .init(exif: header.exifTIFF?.count, xmp: xmp?.count,
                                    extendedXMP: extended.isEmpty ? nil : extended.reduce(0) { $0 + max(0, $1.count - extendedXMPChunkHeaderBytes) },
                                    icc: icc?.count)
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
        if let mpf = header.segments.first(where: { $0.marker == 0xE2 && header.bytes[$0.payload].starts(with: Array("MPF\0".utf8)) }) {
            if let listed = MultiPictureFormat.listed(payload: header.bytes[mpf.payload], payloadStart: mpf.payload.lowerBound) {
                var headers = [0: header]
                properties.images = multiPictureImages(listed, primary: image, source: source, headers: &headers,
                                                       warnings: &properties.warnings)
                let sizes = Dictionary(uniqueKeysWithValues: properties.images.enumerated().compactMap { index, image in image.size.map { (index, $0) } })
                let (gainMap, warning) = JPEGGainMap.find(primary: header, images: headers, sizes: sizes)
                properties.gainMap = gainMap
                if let warning { properties.warnings.append(warning) }
            } else {
                properties.warnings.append("Multi-Picture (MPF) segment: not a readable MP Index IFD")
            }
        }
        return properties
    }

    /// The images an MP Index IFD lists: the primary as described, then each other image
    /// with its own frame size, read from its header at its offset (a cut or foreign
    /// entry is a warning, never a failure); each header read lands in `headers` by position.
    static func multiPictureImages(_ listed: [MultiPictureFormat.Listed], primary: ImageProperties.Image, source: ByteSource,
                                   headers: inout [Int: JPEGSegments], warnings: inout [String]) -> [ImageProperties.Image] {
        var images: [ImageProperties.Image] = []
        for (index, entry) in listed.enumerated() {
            var image = index == 0 ? primary : ImageProperties.Image(type: "jpeg")
            image.multiPicture = .init(type: MultiPictureFormat.typeName(entry.typeCode), bytes: entry.size, start: entry.start)
            if index > 0 {
                let header = entry.start >= 0 && entry.start < source.size
                    ? (try? source.read(at: entry.start, count: min(firstRead, source.size - entry.start))).flatMap(JPEGSegments.init) : nil
                headers[index] = header
                if let frame = header?.frameHeader {
                    image.size = ImageSize(width: frame.width, height: frame.height)
                    image.displaySize = image.size
                    image.components = frame.components.count
                    image.coding = frame.coding
                } else {
                    warnings.append("Multi-Picture image \(index + 1): no JPEG at byte \(entry.start)")
                }
            }
            images.append(image)
        }
        return images
    }

    /// The header segments (`JPEGSegments.readingHeader`: the scan data is never read).
    static func segments(_ source: ByteSource) throws(InspectError) -> JPEGSegments {
        let header: JPEGSegments?
        do {
            header = try JPEGSegments.readingHeader(of: source, firstRead: firstRead)
        } catch {
            throw InspectError("cannot read: \(error)")
        }
        guard let header else { throw InspectError("not a well-formed JPEG: its header segments do not lead to a scan") }
        return header
    }
}
