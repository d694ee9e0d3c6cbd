import H2JContainer

extension Array where Element == ContentPart {
    /// What the outputs do not carry, in two lists: what the user's own options left out
    /// (`--images primary`, `--hdr sdr`, strip mode's SDR-only HDR image, `--aux` given
    /// without that kind), and the rest, which keeps an original from being handed off.
    /// Each names the option that would carry it.
    package func split(_ choices: OutputChoices) -> (missing: [String], leftOut: [String]) {
        var missing: [String] = [], leftOut: [String] = []
        for part in self {
            switch part.kind {
            case .images where choices.images == .primary:
                leftOut.append(part.phrase + " (--images all writes them)")
            case .auxiliary(.hdrGainMap) where choices.hdr == .sdr, .gainMapItem where choices.hdr == .sdr,
                 .hdrRendition where choices.hdr == .sdr:
                leftOut.append(part.phrase + " (--hdr ultrahdr writes it)")
            case .hdrRendition where choices.metadata == .strip:
                leftOut.append(part.phrase + " (keep mode writes it as Ultra HDR)")
            case .auxiliary(let kind) where AuxiliaryOutput(kind) != nil:
                let output = AuxiliaryOutput(kind)!
                let phrase = part.phrase + " (--aux \(output.rawValue) writes it)"
                if choices.auxiliariesChosen { leftOut.append(phrase) } else { missing.append(phrase) }
            default:
                missing.append(part.phrase)
            }
        }
        return (missing, leftOut)
    }
}
