import H2JSupport
import H2JContainer

/// Names the metadata that describes an image's auxiliary images (depth or disparity
/// maps, HDR gain maps, alpha planes) when no output carries it.
///
/// A JPEG holds one image. The auxiliary images' own XMP or EXIF (an iPhone's depth
/// calibration, its gain-map version) describes them, not the image: grafting it onto
/// the image's packet would misattribute it. An auxiliary image written with `--aux`
/// carries it in its own JPEG; any other is dropped, and every drop is named in a
/// per-file warning rather than left silent.
enum AuxiliaryMetadata {
    /// One warning per auxiliary image of `primary` that has metadata items (`cdsc`) and
    /// is not among the `carried` ones.
    static func warnings(_ structure: HEIFStructure, primary: UInt32, carried: Set<UInt32> = []) -> [Warning] {
        let auxiliaries = structure.references
            .filter { $0.type == "auxl" && $0.to.contains(primary) }
            .map(\.from)
        var warnings: [Warning] = []
        for aux in Set(auxiliaries).subtracting(carried).sorted() {
            let described = structure.items.values
                .filter { structure.referenced(from: $0.id, type: "cdsc").contains(aux) }
                .sorted { $0.id < $1.id }
                .compactMap { item -> String? in
                    if item.type == "Exif" { return "EXIF" }
                    if item.type == "mime" && item.contentType == SourceMetadata.xmpContentType { return "XMP" }
                    return nil
                }
            guard !described.isEmpty else { continue }
            let kind = structure.auxiliaryType(of: aux).map { AuxiliaryKind(urn: $0).phrase } ?? "auxiliary image"
            warnings.append(Warning(.auxiliaryMetadataNotCarried, "\(described.joined(separator: " and ")) of the \(kind) "
                + "(item \(aux)) is not carried over: the JPEG holds only the image (--aux writes auxiliary images with theirs)"))
        }
        return warnings
    }
}
