import H2JContainer

/// One file a source's conversion writes: its name and the image items it holds, one,
/// or for a stereo MPO the left and the right view; for an auxiliary image (`--aux`),
/// the image it belongs to.
package struct OutputPlan: Equatable, Sendable {
    package let name: OutputName
    package let items: [UInt32]
    package var master: UInt32? = nil

    /// Every output of a source, in order, the one holding the primary first:
    /// `--images primary` (or an output to a stream) writes the primary alone; `all`
    /// writes each still image (`HEIFStructure.stillImages()`) at its position's name
    /// (`NAME.jpg`, `NAME-2.jpg`, …), except that a stereo pair (an `ster` group of two
    /// of them) becomes, at the name of whichever of the two comes first, one MPO (left
    /// view first) or, with `--stereo split`, `…-left.jpg` and `…-right.jpg`. After each
    /// image's output come its auxiliary images of the `--aux` kinds, `NAME.depth.jpg`,
    /// `NAME.matte.jpg`, `NAME.matte-2.jpg`, … (a stereo MPO's right view's as
    /// `NAME-right.depth.jpg`).
    package static func plans(_ structure: HEIFStructure, images: ImageSelection, stereo: StereoLayout,
                      auxiliaries: Set<AuxiliaryOutput> = [], toStream: Bool) -> [OutputPlan] {
        let still = structure.stillImages()
        var plans: [OutputPlan] = []
        if images == .all, !toStream {
            let pair = structure.stereoPair(among: still)
            var pairWritten = false
            for (position, id) in still.enumerated() {
                let suffix = position == 0 ? "" : "-\(position + 1)"
                guard let pair, id == pair.left || id == pair.right else {
                    plans.append(OutputPlan(name: OutputName(checking: suffix)!, items: [id]))
                    continue
                }
                guard !pairWritten else { continue }
                pairWritten = true
                switch stereo {
                case .mpo:
                    plans.append(OutputPlan(name: OutputName(checking: suffix)!, items: [pair.left, pair.right]))
                case .split:
                    plans.append(OutputPlan(name: OutputName(checking: suffix + "-left")!, items: [pair.left]))
                    plans.append(OutputPlan(name: OutputName(checking: suffix + "-right")!, items: [pair.right]))
                }
            }
        } else {
            plans = [OutputPlan(name: .primary, items: [structure.primaryID])]
        }
        guard !auxiliaries.isEmpty, !toStream else { return plans }
        return plans.flatMap { plan in [plan] + auxiliaryPlans(of: plan, structure, auxiliaries) }
    }

    /// Whether this output is the primary's own JPEG, which an Ultra HDR gain map follows
    /// (a stereo MPO holding the primary carries none).
    package func carriesGainMap(primary: UInt32) -> Bool {
        items == [primary] && master == nil
    }

    /// The `--aux` outputs of the images `plan` writes.
    private static func auxiliaryPlans(of plan: OutputPlan, _ structure: HEIFStructure,
                                       _ kinds: Set<AuxiliaryOutput>) -> [OutputPlan] {
        var plans: [OutputPlan] = []
        for (index, image) in plan.items.enumerated() {
            let base = plan.name.suffix + (index == 1 ? "-right" : "")
            var counts: [AuxiliaryOutput: Int] = [:]
            for (id, kind) in structure.auxiliaryImages(of: image) {
                guard let output = AuxiliaryOutput(kind), kinds.contains(output) else { continue }
                let n = counts[output, default: 0] + 1
                counts[output] = n
                guard let name = OutputName(checking: base + "." + output.rawValue + (n > 1 ? "-\(n)" : "")) else { continue }
                plans.append(OutputPlan(name: name, items: [id], master: image))
            }
        }
        return plans
    }
}
