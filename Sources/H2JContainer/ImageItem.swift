import H2JSupport

/// What the container says about one image item (the primary, or another photo the file
/// holds), checked for the defects that would make a converter show the wrong picture.
package struct ImageItem: Sendable, Equatable {
    package let id: UInt32
    /// Item type: `hvc1`, `av01`, `grid`, `iovl`, `iden`, …
    package let itemType: String
    /// True when the coded image has a single (luma) channel: a grayscale JPEG is due.
    package let isMonochrome: Bool
}

extension HEIFStructure {
    /// Item types that are coded images (not all of which heic2jpg decodes: `decodableTypes`).
    package static let codedImageTypes: Set<String> = ["hvc1", "av01", "avc1", "vvc1", "j2k1", "jpeg", "unci"]
    /// Coded image types the converter decodes: HEVC (libde265, libheif), AV1 (libheif),
    /// a JPEG item (its own codestream) and an uncompressed image (heic2jpg's reader).
    package static let decodableTypes: Set<String> = ["hvc1", "av01", "jpeg", "unci"]
    /// Coded types libheif 1.15 cannot decode: heic2jpg decodes them as images of their own
    /// and as the inputs of the derived images it composes (`isComposed`), never as the
    /// input of one a decoder would have to reconstruct.
    package static let standaloneTypes: Set<String> = ["jpeg", "unci"]

    /// Refuses, naming the codec, an image (the primary when nil) that is (or derives
    /// from) an item coded in something heic2jpg does not decode: AVC, VVC, JPEG 2000, a
    /// layered HEVC image (`lhv1`: a grid of SHVC enhancement layers), or a JPEG item or
    /// an uncompressed (`unci`) image as the input of a derived image that heic2jpg does
    /// not compose itself (`isComposed`: a `tmap`). Otherwise
    /// libheif 1.15 says only that `pitm` names no image. Walks the `dimg` inputs to
    /// `maxDerivationDepth`, each item once.
    package func checkCodecs(of image: UInt32? = nil) throws(HEIFError) {
        var pending: [(id: UInt32, depth: Int, composedInput: Bool)] = [(image ?? primaryID, 0, false)]
        var seen: Set<UInt32> = []
        while let (id, depth, composedInput) = pending.popLast() {
            guard seen.insert(id).inserted, let item = items[id] else { continue }
            if Self.codedImageTypes.contains(item.type) && !Self.decodableTypes.contains(item.type) || item.type == Self.layeredImageType {
                throw .unsupportedCodec(item: id, type: item.type)
            }
            if depth > 0 && !composedInput && Self.standaloneTypes.contains(item.type) {
                throw .unsupportedDerivedInput(item: id, type: item.type)
            }
            let composed = isComposed(id)
            if depth < Self.maxDerivationDepth { pending += referenced(from: id, type: "dimg").map { ($0, depth + 1, composed) } }
        }
    }

    /// Validates the primary item and describes it.
    ///
    /// Rejected: a `pitm` that names no item, a primary that is itself a thumbnail or an
    /// auxiliary image of another item (the file then has no photo we could trust), and
    /// derived images whose `dimg` references name missing items.
    package func primaryImage() throws(HEIFError) -> ImageItem {
        guard items[primaryID] != nil else { throw .missingItem(referencedBy: "'pitm'", id: primaryID) }
        return try image(primaryID)
    }

    /// Validates image item `id` (one of `stillImages()`) and describes it, with the
    /// rules of `primaryImage()`.
    package func image(_ id: UInt32) throws(HEIFError) -> ImageItem {
        guard let item = items[id] else { throw .missingItem(referencedBy: "the image list", id: id) }
        if let master = referenced(from: id, type: "thmb").first {
            throw .unusableImage(id: id, reason: "is declared a thumbnail of item \(master) ('thmb' reference), so the file names no real photo")
        }
        if let master = referenced(from: id, type: "auxl").first {
            throw .unusableImage(id: id, reason: "is declared an auxiliary image of item \(master) ('auxl' reference)")
        }
        let sources = referenced(from: id, type: "dimg")
        for source in sources where items[source] == nil {
            throw .missingItem(referencedBy: "'dimg' of item \(id)", id: source)
        }
        if ["grid", "iovl", "iden"].contains(item.type) && sources.isEmpty {
            throw .unusableImage(id: id, reason: "is a '\(item.type)' image with no 'dimg' inputs")
        }
        return ImageItem(id: id, itemType: item.type, isMonochrome: isMonochrome(id, depth: 0))
    }

    /// Describes thumbnail `id` (a `thmb` of another image) as an image of its own, for
    /// `--thumbnail`. A derived one must have its inputs.
    package func thumbnailImage(_ id: UInt32) throws(HEIFError) -> ImageItem {
        guard let item = items[id] else { throw .missingItem(referencedBy: "'thmb'", id: id) }
        let sources = referenced(from: id, type: "dimg")
        guard !Self.derivedImageTypes.contains(item.type) || (!sources.isEmpty && sources.allSatisfy { items[$0] != nil }) else {
            throw .unusableImage(id: id, reason: "is a '\(item.type)' image without its 'dimg' inputs")
        }
        return ImageItem(id: id, itemType: item.type, isMonochrome: isMonochrome(id, depth: 0))
    }

    /// Describes auxiliary image `id` (alpha, depth, a matte, a gain map) as an image of
    /// its own, for `--aux`: one channel, its luma. A derived one must have its inputs.
    package func auxiliaryImage(_ id: UInt32) throws(HEIFError) -> ImageItem {
        guard let item = items[id] else { throw .missingItem(referencedBy: "'auxl'", id: id) }
        let sources = referenced(from: id, type: "dimg")
        for source in sources where items[source] == nil {
            throw .missingItem(referencedBy: "'dimg' of item \(id)", id: source)
        }
        if Self.derivedImageTypes.contains(item.type) && sources.isEmpty {
            throw .unusableImage(id: id, reason: "is a '\(item.type)' image with no 'dimg' inputs")
        }
        return ImageItem(id: id, itemType: item.type, isMonochrome: true)
    }

    /// Single-channel test: `pixi` with one channel, else the codec configuration
    /// (`hvcC` chroma_format_idc 0, or `av1C` mono_chrome), else the first input of a derived image.
    func isMonochrome(_ id: UInt32, depth: Int) -> Bool {
        if let pixi = properties(of: id, type: "pixi").first, let channels = ByteReader(pixi.payload).u8(4) {
            return channels == 1
        }
        if let hvcC = properties(of: id, type: "hvcC").first, let chroma = ByteReader(hvcC.payload).u8(16) {
            return chroma & 0x03 == 0
        }
        if let av1C = properties(of: id, type: "av1C").first, let flags = ByteReader(av1C.payload).u8(2) {
            return flags & 0x10 != 0
        }
        if depth < 4, let first = referenced(from: id, type: "dimg").first, first != id {
            return isMonochrome(first, depth: depth + 1)
        }
        return false
    }
}
