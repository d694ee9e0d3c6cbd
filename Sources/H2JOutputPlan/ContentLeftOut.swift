import H2JContainer

extension Array where Element == ContentPart {
    /// What the outputs do not carry, in two lists: what the user's own options left out
    /// (`--images primary`, `--hdr sdr`, `--aux` given without that kind), and the rest,
    /// which keeps an original from being handed off. Each names the option that would
    /// carry it.
    package func split(images: ImageSelection, hdr: HDROutput, auxiliariesChosen: Bool) -> (missing: [String], leftOut: [String]) {
        var missing: [String] = [], leftOut: [String] = []
        for part in self {
            switch part.kind {
            case .images where images == .primary:
                leftOut.append(part.phrase + " (--images all writes them)")
            case .auxiliary(.hdrGainMap) where hdr == .sdr, .gainMapItem where hdr == .sdr:
                leftOut.append(part.phrase + " (--hdr ultrahdr writes it)")
            case .auxiliary(let kind) where AuxiliaryOutput(kind) != nil:
                let output = AuxiliaryOutput(kind)!
                let phrase = part.phrase + " (--aux \(output.rawValue) writes it)"
                if auxiliariesChosen { leftOut.append(phrase) } else { missing.append(phrase) }
            default:
                missing.append(part.phrase)
            }
        }
        return (missing, leftOut)
    }
}
