import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JMetadata
@testable import H2JOutputPlan
@testable import H2JSupport

/// What the options leave out and which gain map they write, as both `convert` and
/// `inspect` decide it.
@Suite("Output choices: what is left out as asked, which gain map is written")
struct ContentLeftOutTests {
    static let parts = [ContentPart(.images, "2 more images (#2, #3)"), ContentPart(.auxiliary(.depth), "a depth map"),
                        ContentPart(.auxiliary(.hdrGainMap), "an HDR gain map"), ContentPart(.auxiliary(.other("urn:x")), "an auxiliary image 'urn:x'"),
                        ContentPart(.gainMapItem, "a gain map ('tmap' item)"), ContentPart(.sequence, "an image sequence of 8 frames")]

    @Test("The defaults: everything not carried is content the outputs lack, with the option that would carry it")
    func defaults() {
        let (missing, leftOut) = Self.parts.split(images: .all, hdr: .ultraHDR, auxiliariesChosen: false)
        #expect(missing == ["2 more images (#2, #3)", "a depth map (--aux depth writes it)", "an HDR gain map (--aux gainmap writes it)",
                            "an auxiliary image 'urn:x'", "a gain map ('tmap' item)", "an image sequence of 8 frames"])
        #expect(leftOut.isEmpty)
    }

    @Test("--images primary, --hdr sdr and --aux given: what they leave out is left out as asked; the rest stays content")
    func asked() {
        let (missing, leftOut) = Self.parts.split(images: .primary, hdr: .sdr, auxiliariesChosen: true)
        #expect(leftOut == ["2 more images (#2, #3) (--images all writes them)", "a depth map (--aux depth writes it)",
                            "an HDR gain map (--hdr ultrahdr writes it)", "a gain map ('tmap' item) (--hdr ultrahdr writes it)"])
        #expect(missing == ["an auxiliary image 'urn:x'", "an image sequence of 8 frames"])
    }

    @Test("Only the primary's own JPEG carries the gain map: not a stereo MPO holding it, not an auxiliary output")
    func carriesGainMap() {
        #expect(OutputPlan(name: .primary, items: [1]).carriesGainMap(primary: 1))
        #expect(!OutputPlan(name: .primary, items: [1, 2]).carriesGainMap(primary: 1))
        #expect(!OutputPlan(name: OutputName(checking: "-left")!, items: [2]).carriesGainMap(primary: 1))
        #expect(!OutputPlan(name: OutputName(checking: ".gainmap")!, items: [1], master: 3).carriesGainMap(primary: 1))
    }

    @Test("The gain map is looked for in keep mode with --hdr ultrahdr only; strip mode and --hdr sdr find none and warn of none")
    func gainMapByOptions() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        let source = MemoryByteSource(try [UInt8](Data(contentsOf: samples.appendingPathComponent("gainmap-apple.heic"))))
        let structure = try HEIFStructure.read(from: source)
        let (found, warning) = GainMapSource.find(structure, source: source, hdr: .ultraHDR, metadata: .keep)
        #expect(found?.item == 2 && found?.codeMapping != nil && warning == nil)
        #expect(found?.description == "Apple gain map (item 2), headroom 4 from the XMP HDRGainMapHeadroom")
        for (hdr, metadata) in [(HDROutput.sdr, MetadataMode.keep), (.ultraHDR, .strip), (.sdr, .strip)] {
            let (none, said) = GainMapSource.find(structure, source: source, hdr: hdr, metadata: metadata)
            #expect(none == nil && said == nil, "\(hdr) \(metadata)")
        }
    }
}
