import H2JColour
import H2JContainer
import H2JMetadata
import H2JOutputPlan
import H2JSupport

/// Describes a HEIF/AVIF file from its container alone: `ftyp`, the `meta` box, and the
/// few item payloads that hold metadata (EXIF, XMP, a `tmap`'s) or a grid descriptor;
/// and the files a conversion would write (`OutputForecast`). Nothing is
/// decoded, so a 200 MP photo is described as fast as a thumbnail.
///
/// Only a container that cannot be read at all is an error; a defect in one part (an
/// unusable primary, unreadable EXIF, a `clap` outside the image) becomes a warning and
/// the rest is still described.
enum HEIFDescriber {
    /// Item types that are images (coded or derived, `tmap` and layered HEVC included).
    static let imageTypes = HEIFStructure.codedImageTypes.union(["grid", "iovl", "iden", "tmap", HEIFStructure.layeredImageType])
    /// A grid descriptor is 8 or 12 bytes; more is never needed.
    static let maxGridDescriptorBytes = 64

    /// `outputs`: the options the files a conversion would write are planned with.
    static func describe(_ source: ByteSource, outputs: OutputChoices = OutputChoices()) throws(HEIFError) -> ImageProperties {
        let structure = try HEIFStructure.read(from: source)
        let primaryType = structure.items[structure.primaryID]?.type
        let isAVIF = primaryType == "av01" || (primaryType == nil && ["avif", "avis"].contains(structure.brands.first ?? ""))
        var properties = ImageProperties(format: isAVIF ? "avif" : "heif", byteSize: source.size)
        properties.brands = .init(major: structure.brands.first ?? "", compatible: Array(structure.brands.dropFirst()))
        do {
            _ = try structure.primaryImage()
        } catch {
            properties.warnings.append("primary image: \(error)")
        }
        properties.images = images(structure, source)
        properties.groups = structure.entityGroups
        properties.tracks = structure.sequenceTracks
        properties.toneMap = structure.toneMappedImage(from: source)
        if structure.unreadableGroups > 0 {
            properties.warnings.append("\(structure.unreadableGroups) entity group(s) in 'grpl' could not be read")
        }
        if structure.hasImageSequence && structure.sequenceTracks.isEmpty {
            properties.warnings.append("the 'moov' box (an image sequence) could not be described")
        }
        properties.outputs = OutputForecast.forecast(structure, source, outputs)
        guard structure.items[structure.primaryID] != nil else { return properties }
        var primary = self.primary(structure, source, &properties.warnings)
        properties.metadata.icc = primary.icc?.bytes
        let metadata = describeMetadata(structure, source, into: &properties, primary: &primary)
        properties.primary = primary
        properties.appleGainMap = appleGainMap(structure, source, primaryEXIF: metadata?.exif)
        return properties
    }

    /// Every image item but a grid's hidden tiles, by ID; the hidden inputs of other
    /// derived images (a `tmap`'s gain map, an overlay's layers) are listed, with what
    /// they are an input of. References are indexed once, so the work stays linear in
    /// items plus references.
    static func images(_ structure: HEIFStructure, _ source: ByteSource) -> [ImageProperties.Image] {
        var targets: [String: [UInt32: [UInt32]]] = [:]
        for reference in structure.references where ["dimg", "thmb", "auxl"].contains(reference.type) {
            targets[reference.type, default: [:]][reference.from, default: []] += reference.to
        }
        var tiles: Set<UInt32> = []
        var inputOf: [UInt32: UInt32] = [:]
        for (derived, inputs) in targets["dimg"] ?? [:] {
            if structure.items[derived]?.type == "grid" {
                tiles.formUnion(inputs)
            } else {
                for input in inputs where inputOf[input] == nil { inputOf[input] = derived }
            }
        }
        return structure.items.values
            .filter { imageTypes.contains($0.type) && !($0.hidden && tiles.contains($0.id)) }
            .sorted { $0.id < $1.id }
            .map { item in
                var image = ImageProperties.Image(id: item.id, type: item.type)
                image.size = structure.imageSize(of: item.id)
                image.displaySize = image.size.flatMap { displaySize($0, try? structure.transforms(of: item.id)) }
                image.isPrimary = item.id == structure.primaryID
                image.hidden = item.hidden
                image.thumbnailOf = targets["thmb"]?[item.id]?.first
                if item.type != "grid" { image.inputs = targets["dimg"]?[item.id] ?? [] }
                if item.hidden { image.inputOf = inputOf[item.id] }
                if let urn = structure.auxiliaryType(of: item.id) {
                    image.auxiliary = .init(kind: AuxiliaryKind(urn: urn).token, urn: urn, of: targets["auxl"]?[item.id]?.first)
                }
                if item.type == "grid" {
                    image.tiles = targets["dimg"]?[item.id]?.count ?? 0
                    image.grid = (try? structure.itemData(item.id, from: source, maxBytes: maxGridDescriptorBytes))
                        .flatMap { try? ImageGrid.parse($0) }
                }
                return image
            }
    }

    /// The primary's Apple HDR gain map, with the headroom from its own XMP or the
    /// maker note in the primary's EXIF item (`primaryEXIF`).
    static func appleGainMap(_ structure: HEIFStructure, _ source: ByteSource, primaryEXIF: [UInt8]?) -> ImageProperties.AppleGainMap? {
        guard let id = structure.appleGainMap else { return nil }
        let gainMapXMP = (try? SourceMetadata(storedIn: structure, primary: id, source: source))?.xmp
        let headroom = AppleHDRHeadroom.headroom(gainMapXMP: gainMapXMP, primaryExifItem: primaryEXIF)
        return ImageProperties.AppleGainMap(id: id, headroom: headroom?.value, origin: headroom?.origin)
    }

    /// The size after `clap` and `irot` (`PlaneGeometry` composes them as the converter
    /// does), or nil when the transforms cannot be applied.
    static func displaySize(_ size: ImageSize, _ transforms: [ImageTransform]?) -> ImageSize? {
        guard let transforms, let geometry = try? PlaneGeometry(canvasWidth: size.width, canvasHeight: size.height, transforms: transforms)
        else { return nil }
        return ImageSize(width: geometry.width, height: geometry.height)
    }

    /// Coding, colour and transforms of the primary item.
    static func primary(_ structure: HEIFStructure, _ source: ByteSource, _ warnings: inout [String]) -> ImageProperties.Primary {
        let id = structure.primaryID
        let coding = HEIFCodingFormat(structure, item: id, source: source)
        let colour = SourceMetadata.colour(structure, id)
        var primary = ImageProperties.Primary(id: id, bitDepth: coding.bitDepth, chroma: coding.chroma,
                                              icc: colour.icc.map(ICCProfileInfo.init(profile:)), nclx: colour.nclx)
        do {
            let size = structure.imageSize(of: id)
            let transforms = try structure.transforms(of: id)
            primary.transforms = transforms.map { describe($0, size) }
            for transform in transforms {
                switch transform {
                case .rotation(let quarterTurns): primary.rotation = ((primary.rotation ?? 0) + quarterTurns * 90) % 360
                case .mirror(let axis): primary.mirror = axis
                case .cleanAperture: continue
                }
            }
        } catch {
            warnings.append("primary image transforms: \(error)")
        }
        return primary
    }

    /// `irot 90` (anticlockwise degrees), `imir horizontal`, `clap 100x80+2+0` (the crop
    /// of the coded size, when it is known and the crop is valid).
    static func describe(_ transform: ImageTransform, _ size: ImageSize?) -> String {
        switch transform {
        case .rotation(let quarterTurns): return "irot \(quarterTurns * 90)"
        case .mirror(let axis): return "imir \(name(axis))"
        case .cleanAperture(let aperture):
            guard let size, let crop = aperture.cropRect(imageWidth: size.width, imageHeight: size.height) else { return "clap" }
            return "clap \(crop.width)x\(crop.height)+\(crop.x)+\(crop.y)"
        }
    }

    /// The `MirrorAxis` case name: `horizontal` or `vertical`.
    static func name(_ axis: MirrorAxis) -> String {
        switch axis {
        case .horizontal: "horizontal"
        case .vertical: "vertical"
        }
    }

    /// EXIF and XMP of the primary as the converter finds them (`SourceMetadata`).
    /// Returns the metadata read, nil when its items could not be.
    static func describeMetadata(_ structure: HEIFStructure, _ source: ByteSource,
                                 into properties: inout ImageProperties, primary: inout ImageProperties.Primary) -> SourceMetadata? {
        let metadata: SourceMetadata
        do {
            metadata = try SourceMetadata(storedIn: structure, primary: structure.primaryID, source: source)
        } catch {
            properties.warnings.append("metadata items: \(error)")
            return nil
        }
        properties.metadata.exif = metadata.exif?.count
        properties.metadata.xmp = metadata.xmp?.count
        if let item = metadata.exif {
            EXIFSummary.describe({ () throws(EXIFError) in try EXIFDirectory(heifExifItem: item) }, into: &properties, primary: &primary)
        }
        properties.provenance = metadata.xmp.flatMap(ProvenanceMark.init(xmp:))
        return metadata
    }
}
