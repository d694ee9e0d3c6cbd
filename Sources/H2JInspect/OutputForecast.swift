import H2JContainer
import H2JOutputPlan
import H2JSupport

/// What `convert` would write for a HEIF file with the options in `OutputChoices`, told
/// from the container alone: the same plan (`OutputPlan.plans`), the same gain map
/// (`GainMapSource.find`, in keep mode with `--hdr ultrahdr`: `writesUltraHDR`) and the
/// same account of what the outputs leave out (`contentNotCarried`, `split`) as a
/// conversion, assuming every image decodes. A PQ or HLG primary is tone-mapped to SDR,
/// and its Ultra HDR gain map is computed from both renditions when it has none of its
/// own: what that computation finds shows only when converting; one whose gain map takes
/// it to SDR gets that rendition instead, in any mode (`GainMapSource.hdrBase`). An
/// image whose codec or structure the converter refuses before decoding (the checks it
/// makes first: `checkCodecs`, `image`, `auxiliaryImage`, and for the source
/// `checkItemsInFile`, a file cut short) is left out here as there: another image's
/// output is not written (`image-not-converted`), the primary's fails the source. A gain
/// map that does not decode is found only by decoding it.
enum OutputForecast {
    static func forecast(_ structure: HEIFStructure, _ source: ByteSource, _ choices: OutputChoices) -> ImageProperties.Outputs {
        var outputs = ImageProperties.Outputs(choices: choices)
        let primary = structure.primaryID
        do {
            _ = try structure.primaryImage()
            try structure.checkCodecs()
            try structure.checkItemsInFile(size: source.size)
        } catch {
            outputs.failure = "\(error)"
            return outputs
        }
        let plans = OutputPlan.plans(structure, images: choices.images, stereo: choices.stereo, auxiliaries: choices.auxiliaries,
                                     toStream: false)
        // As the converter: the source's gain map is looked for only when an output will carry
        // it, or when it takes an HDR base to its SDR rendition, which it then gives in any mode.
        let ultraHDRPrimary = choices.writesUltraHDR && plans.contains { $0.carriesGainMap(primary: primary) }
        let hdrTransfer = structure.hdrTransferName()
        let (found, notUsed) = ultraHDRPrimary || hdrTransfer != nil ? GainMapSource.find(structure, source: source) : (nil, nil)
        let gainMap = ultraHDRPrimary ? found : nil
        let applied = found?.hdrBase != nil ? found : nil
        outputs.gainMapNotUsed = ultraHDRPrimary ? notUsed?.message : nil
        var hdrCarried = false
        var converted: Set<UInt32> = [], auxiliaries: Set<UInt32> = []
        for plan in plans {
            if let refusal = refusal(plan, structure) {
                guard !plan.items.contains(primary) || plan.master != nil else {
                    outputs.failure = refusal
                    outputs.files = []
                    return outputs
                }
                outputs.notWritten.append(.init(name: plan.name, items: plan.items, reason: refusal))
                continue
            }
            var file = ImageProperties.OutputFile(name: plan.name, items: plan.items, of: plan.master)
            if ultraHDRPrimary && plan.carriesGainMap(primary: primary) {
                if let gainMap {
                    file.gainMap = gainMap.item
                    outputs.hdr = "Ultra HDR: " + gainMap.description
                    auxiliaries.insert(gainMap.item)
                    hdrCarried = gainMap.hdrBase != nil
                } else if let hdrTransfer {
                    file.computedGainMap = true
                    outputs.hdr = "Ultra HDR: a gain map computed from the HDR (\(hdrTransfer)) and SDR renditions"
                    hdrCarried = true
                }
            }
            if outputs.hdr == nil, plan.master == nil, plan.items.contains(primary), let applied {
                outputs.hdr = "SDR only: " + applied.description
            } else if outputs.hdr == nil, plan.master == nil, plan.items.contains(primary), let hdrTransfer {
                outputs.hdr = "SDR only, tone-mapped from \(hdrTransfer)"
            }
            if plan.master == nil { converted.formUnion(plan.items) } else { auxiliaries.formUnion(plan.items) }
            outputs.files.append(file)
        }
        let toneMapCarried = outputs.files.contains { $0.gainMap != nil } && gainMap?.toneMap != nil
        (outputs.notConverted, outputs.leftOut) = structure
            .contentNotCarried(converted: converted, auxiliaries: auxiliaries, toneMapCarried: toneMapCarried, hdrCarried: hdrCarried)
            .split(choices)
        return outputs
    }

    /// Why the converter refuses an image of `plan` before decoding it, nil when it
    /// does not: the primary was checked already; another still image and an
    /// auxiliary image must be coded in a codec heic2jpg decodes and be sound.
    static func refusal(_ plan: OutputPlan, _ structure: HEIFStructure) -> String? {
        for id in plan.items where id != structure.primaryID || plan.master != nil {
            do {
                try structure.checkCodecs(of: id)
                _ = try plan.master == nil ? structure.image(id) : structure.auxiliaryImage(id)
            } catch {
                return "\(error)"
            }
        }
        return nil
    }
}
