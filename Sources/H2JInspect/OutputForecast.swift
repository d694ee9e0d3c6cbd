import H2JContainer
import H2JOutputPlan
import H2JSupport

/// What `convert` would write for a HEIF file with the options in `OutputChoices`: the
/// very plan the converter runs (`ConversionPlan`, at the default pixel limit), shown as
/// it would turn out if every image decodes. The primary's refusal fails the source;
/// another image's leaves its output unwritten (`image-not-converted`). A PQ or HLG
/// primary is tone-mapped to SDR, and its Ultra HDR gain map is computed from both
/// renditions when it has none of its own: what that computation finds shows only when
/// converting; one whose gain map takes it to SDR gets that rendition instead, in any
/// mode (`GainMapSource.hdrBase`). A gain map that does not decode is found only by
/// decoding it. What the outputs leave out is told as the converter tells it
/// (`contentNotCarried`, `split`).
enum OutputForecast {
    static func forecast(_ structure: HEIFStructure, _ source: ByteSource, _ choices: OutputChoices) -> ImageProperties.Outputs {
        var outputs = ImageProperties.Outputs(choices: choices)
        let plan: ConversionPlan
        do {
            plan = try ConversionPlan.make(structure, source: source, choices: choices, toStream: false,
                                           maxPixels: ConversionPlan.defaultMaxPixels)
        } catch {
            outputs.failure = "\(error)"
            return outputs
        }
        let primary = plan.primary.id
        let gainMap = plan.ultraHDRPrimary ? plan.gainMap : nil
        let applied = plan.gainMap?.hdrBase != nil ? plan.gainMap : nil
        outputs.gainMapNotUsed = plan.ultraHDRPrimary ? plan.gainMapNotUsed?.message : nil
        var tally = OutputTally()
        for output in plan.outputs {
            let planned = output.plan
            if let refusal = output.refusal {
                guard !planned.items.contains(primary) || planned.master != nil else {
                    outputs.failure = "\(refusal)"
                    outputs.files = []
                    return outputs
                }
                outputs.notWritten.append(.init(name: planned.name, items: planned.items, reason: "\(refusal)"))
                continue
            }
            var file = ImageProperties.OutputFile(name: planned.name, items: planned.items, of: planned.master)
            if output.carriesGainMap {
                if let gainMap {
                    file.gainMap = gainMap.item
                    tally.carries(gainMap: gainMap, description: gainMap.description)
                } else if let hdrTransfer = plan.hdrTransfer {
                    file.computedGainMap = true
                    tally.carries(gainMap: nil, description: "a gain map computed from the HDR (\(hdrTransfer)) and SDR renditions")
                }
            }
            if tally.hdr == nil, planned.master == nil, planned.items.contains(primary) {
                if let applied { tally.rendersSDR(with: applied) }
                else if let hdrTransfer = plan.hdrTransfer { tally.rendersSDR(toneMapped: "from \(hdrTransfer)") }
            }
            tally.add(items: planned.items, master: planned.master)
            outputs.files.append(file)
        }
        outputs.hdr = tally.hdr
        (outputs.notConverted, outputs.leftOut) = tally.notCarried(in: structure, choices)
        return outputs
    }
}
