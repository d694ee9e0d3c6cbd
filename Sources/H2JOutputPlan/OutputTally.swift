import H2JContainer

/// What a source's outputs carry, added up output by output: by the converter as it
/// writes them and by `inspect`'s forecast as it plans them, so the two tell it alike.
/// The images converted, those carried as auxiliary images, the primary's HDR rendition
/// (the report's `hdr`), and what no output carries.
package struct OutputTally: Sendable {
    package private(set) var converted: Set<UInt32> = []
    package private(set) var auxiliaries: Set<UInt32> = []
    /// How the primary's output renders HDR: "Ultra HDR: …", "SDR only: …" or
    /// "SDR only, tone-mapped: …"; nil for an SDR source.
    package private(set) var hdr: String?
    /// An Ultra HDR output carries the HDR rendition of a PQ or HLG primary.
    private var hdrCarried = false
    /// An Ultra HDR output carries a `tmap` item's HDR rendition.
    private var toneMapCarried = false

    package init() {}

    /// An output of `items`, an auxiliary image of `master` when there is one.
    package mutating func add(items: [UInt32], master: UInt32?) {
        if master == nil { converted.formUnion(items) } else { auxiliaries.formUnion(items) }
    }

    /// The primary's output is Ultra HDR with `gainMap` (nil: a gain map computed from a
    /// PQ or HLG image's two renditions), told by `description`.
    package mutating func carries(gainMap: GainMapSource?, description: String) {
        hdr = "Ultra HDR: " + description
        if let gainMap { auxiliaries.insert(gainMap.item) }
        hdrCarried = gainMap == nil || gainMap?.hdrBase != nil
        toneMapCarried = gainMap?.toneMap != nil
    }

    /// The primary's output is SDR only: its HDR base taken to SDR by `gainMap`.
    package mutating func rendersSDR(with gainMap: GainMapSource) {
        hdr = "SDR only: " + gainMap.description
    }

    /// The primary's output is SDR only: its PQ or HLG image tone-mapped, as `toneMapping` tells.
    package mutating func rendersSDR(toneMapped toneMapping: String) {
        hdr = "SDR only, tone-mapped: " + toneMapping
    }

    /// What no output carries, split into what the options left out and the rest.
    package func notCarried(in structure: HEIFStructure, _ choices: OutputChoices) -> (missing: [String], leftOut: [String]) {
        structure.contentNotCarried(converted: converted, auxiliaries: auxiliaries, toneMapCarried: toneMapCarried,
                                    hdrCarried: hdrCarried).split(choices)
    }
}
