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
                        ContentPart(.gainMapItem, "a gain map ('tmap' item)"), ContentPart(.sequence, "an image sequence of 8 frames"),
                        ContentPart(.hdrRendition, "the primary's HDR rendition (PQ, tone-mapped to SDR only)")]

    static func choices(images: ImageSelection = .all, hdr: HDROutput = .ultraHDR, metadata: MetadataMode = .keep,
                        auxiliariesChosen: Bool = false) -> OutputChoices {
        var choices = OutputChoices()
        (choices.images, choices.hdr, choices.metadata, choices.auxiliariesChosen) = (images, hdr, metadata, auxiliariesChosen)
        return choices
    }

    @Test("The defaults: everything not carried is content the outputs lack, with the option that would carry it")
    func defaults() {
        let (missing, leftOut) = Self.parts.split(Self.choices())
        #expect(missing == ["2 more images (#2, #3)", "a depth map (--aux depth writes it)", "an HDR gain map (--aux gainmap writes it)",
                            "an auxiliary image 'urn:x'", "a gain map ('tmap' item)", "an image sequence of 8 frames",
                            "the primary's HDR rendition (PQ, tone-mapped to SDR only)"])
        #expect(leftOut.isEmpty)
    }

    @Test("--images primary, --hdr sdr and --aux given: what they leave out is left out as asked; the rest stays content")
    func asked() {
        let (missing, leftOut) = Self.parts.split(Self.choices(images: .primary, hdr: .sdr, auxiliariesChosen: true))
        #expect(leftOut == ["2 more images (#2, #3) (--images all writes them)", "a depth map (--aux depth writes it)",
                            "an HDR gain map (--hdr ultrahdr writes it)", "a gain map ('tmap' item) (--hdr ultrahdr writes it)",
                            "the primary's HDR rendition (PQ, tone-mapped to SDR only) (--hdr ultrahdr writes it)"])
        #expect(missing == ["an auxiliary image 'urn:x'", "an image sequence of 8 frames"])
        let strip = Self.parts.split(Self.choices(metadata: .strip))
        #expect(strip.leftOut == ["the primary's HDR rendition (PQ, tone-mapped to SDR only) (keep mode writes it as Ultra HDR)"])
    }

    @Test("Only the primary's own JPEG carries the gain map: not a stereo MPO holding it, not an auxiliary output")
    func carriesGainMap() {
        #expect(OutputPlan(name: .primary, items: [1]).carriesGainMap(primary: 1))
        #expect(!OutputPlan(name: .primary, items: [1, 2]).carriesGainMap(primary: 1))
        #expect(!OutputPlan(name: OutputName(checking: "-left")!, items: [2]).carriesGainMap(primary: 1))
        #expect(!OutputPlan(name: OutputName(checking: ".gainmap")!, items: [1], master: 3).carriesGainMap(primary: 1))
    }

    @Test("Ultra HDR in keep mode with --hdr ultrahdr only; the Apple sample's gain map is found with its headroom")
    func gainMapByOptions() throws {
        #expect(Self.choices().writesUltraHDR)
        #expect(!Self.choices(hdr: .sdr).writesUltraHDR && !Self.choices(metadata: .strip).writesUltraHDR)
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples")
        let source = MemoryByteSource(try [UInt8](Data(contentsOf: samples.appendingPathComponent("gainmap-apple.heic"))))
        let structure = try HEIFStructure.read(from: source)
        let (found, warning) = GainMapSource.find(structure, source: source)
        #expect(found?.item == 2 && found?.codeMapping != nil && warning == nil)
        #expect(found?.description == "Apple gain map (item 2), headroom 4 from the XMP HDRGainMapHeadroom")
    }
}
