import H2JContainer

/// One file a source's conversion writes: its name and the image items it holds, one,
/// or for a stereo MPO the left and the right view.
struct OutputPlan: Equatable {
    let name: OutputName
    let items: [UInt32]

    /// Every output of a source, in order, the one holding the primary first:
    /// `--images primary` (or an output to a stream) writes the primary alone; `all`
    /// writes each still image (`HEIFStructure.stillImages()`) at its position's name
    /// (`NAME.jpg`, `NAME-2.jpg`, …), except that a stereo pair (an `ster` group of two
    /// of them) becomes, at the name of whichever of the two comes first, one MPO (left
    /// view first) or, with `--stereo split`, `…-left.jpg` and `…-right.jpg`.
    static func plans(_ structure: HEIFStructure, images: ImageSelection, stereo: StereoLayout, toStream: Bool) -> [OutputPlan] {
        let still = structure.stillImages()
        guard images == .all, !toStream else { return [OutputPlan(name: .primary, items: [structure.primaryID])] }
        let pair = structure.stereoPair(among: still)
        var plans: [OutputPlan] = []
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
        return plans
    }
}
