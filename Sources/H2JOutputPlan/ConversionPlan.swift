import H2JContainer
import H2JSupport

/// What a source's conversion writes, decided from its container alone and before any
/// pixel is decoded: `convert` runs this plan and `inspect` shows it, so the two cannot
/// tell different stories. It holds the outputs in order (`OutputPlan.plans`), each with
/// its images checked as the converter checks them first (a codec heic2jpg decodes, a
/// sound structure and derivation: otherwise `refusal` says why, and that output is not
/// written), and the source's gain map: looked for only when an output will carry it
/// (keep mode with `--hdr ultrahdr`), or when it takes an HDR (PQ, HLG) base to its
/// own SDR rendition, which it then gives in any mode.
package struct ConversionPlan {
    /// One output and its images, ready to convert unless `refusal` says otherwise.
    package struct Output {
        package let plan: OutputPlan
        /// Its images, in `plan.items` order, when every one passed the checks.
        package let images: [ImageItem]
        /// Why an image of it cannot be converted, when one cannot.
        package let refusal: HEIFError?
        /// The primary's own output in an Ultra HDR run: the gain map follows it.
        package let carriesGainMap: Bool
    }

    /// `--max-pixels`' default, 256 MP: every camera's photo, not a bomb. `inspect`
    /// plans with it.
    package static let defaultMaxPixels = 256_000_000

    package let primary: ImageItem
    package let outputs: [Output]
    /// Keep mode with `--hdr ultrahdr`, and an output that carries the primary's gain map.
    package let ultraHDRPrimary: Bool
    /// The gain map found (`GainMapSource.find`), and why one found is not used.
    package let gainMap: GainMapSource?
    package let gainMapNotUsed: Warning?
    /// The PQ or HLG transfer of the primary, when it is HDR (`hdrTransferName`).
    package let hdrTransfer: String?

    /// The plan for `structure` (read from `source`), or the primary's refusal, which
    /// fails the source: not an image heic2jpg takes, a codec it does not decode, item
    /// data past the end of the file (cut short), or an unsound derivation. The checks run
    /// in that order, so the first refusal is the one both commands name.
    package static func make(_ structure: HEIFStructure, source: ByteSource, choices: OutputChoices, toStream: Bool,
                             maxPixels: Int) throws(HEIFError) -> ConversionPlan {
        let primary = try structure.primaryImage()
        try structure.checkCodecs()
        try structure.checkItemsInFile(size: source.size)
        try structure.checkDerivation(from: source, maxPixels: maxPixels)
        let plans = OutputPlan.plans(structure, images: choices.images, stereo: choices.stereo, auxiliaries: choices.auxiliaries,
                                     toStream: toStream)
        let ultraHDRPrimary = choices.writesUltraHDR && plans.contains { $0.carriesGainMap(primary: primary.id) }
        let hdrTransfer = structure.hdrTransferName()
        let (gainMap, notUsed) = ultraHDRPrimary || hdrTransfer != nil ? GainMapSource.find(structure, source: source) : (nil, nil)
        let outputs = plans.map { plan in
            let carries = ultraHDRPrimary && plan.carriesGainMap(primary: primary.id)
            do throws(HEIFError) {
                let images = try plan.items.map { id throws(HEIFError) in
                    id == primary.id && plan.master == nil ? primary
                        : try checkedImage(id, master: plan.master, structure, source: source, maxPixels: maxPixels)
                }
                return Output(plan: plan, images: images, refusal: nil, carriesGainMap: carries)
            } catch {
                return Output(plan: plan, images: [], refusal: error, carriesGainMap: carries)
            }
        }
        return ConversionPlan(primary: primary, outputs: outputs, ultraHDRPrimary: ultraHDRPrimary, gainMap: gainMap,
                              gainMapNotUsed: notUsed, hdrTransfer: hdrTransfer)
    }

    /// Another still image, or an auxiliary image of `master`, checked as the primary is:
    /// a codec heic2jpg decodes, a usable item, a sound derivation.
    private static func checkedImage(_ id: UInt32, master: UInt32?, _ structure: HEIFStructure, source: ByteSource,
                                     maxPixels: Int) throws(HEIFError) -> ImageItem {
        try structure.checkCodecs(of: id)
        let item = try master == nil ? structure.image(id) : structure.auxiliaryImage(id)
        try structure.checkDerivation(of: id, from: source, maxPixels: maxPixels)
        return item
    }
}
