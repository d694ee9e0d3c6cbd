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

/// A gain map described by Adobe's `hdrgm:` XMP (Samsung's URN, no `tmap`): where the
/// values are looked for, and what happens without them.
@Suite("Gain-map source: hdrgm auxiliary images")
struct HDRGMGainMapSourceTests {
    typealias B = BoxBuilder

    /// Primary #1, Samsung's gain map #2 (`auxl`), and, when `xmp` is given, an XMP item #3
    /// describing `describes` (in `idat`).
    static func file(xmp: String?, describes: Int = 2) -> ByteSource {
        let auxC = B.box("auxC", B.fullBox(0) + Array("urn:com:samsung:photo:2024:aux:hdrgainmap".utf8) + [0])
        let packet = xmp.map { Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                                      + "<rdf:Description rdf:about=\"\" xmlns:hdrgm=\"http://ns.adobe.com/hdr-gain-map/1.0/\" "
                                      + $0 + "/></rdf:RDF></x:xmpmeta>").utf8) } ?? []
        var references = [B.reference("auxl", from: 2, to: [1])]
        var extraItems: [[UInt8]] = [], extraBoxes: [[UInt8]] = []
        if xmp != nil {
            references.append(B.reference("cdsc", from: 3, to: [describes]))
            extraItems = [B.infe(id: 3, type: "mime", contentType: "application/rdf+xml")]
            extraBoxes = [B.iloc([.init(id: 3, construction: 1, extents: [(0, 0, UInt64(packet.count))])]), B.idat(packet)]
        }
        return MemoryByteSource(B.ftyp + B.meta(primary: 1, items: [(1, "hvc1"), (2, "hvc1")], references: references,
                                                properties: [auxC], associations: [(2, [1])], extraItems: extraItems, extraBoxes: extraBoxes))
    }

    static let values = #"hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2" hdrgm:OffsetSDR="0" hdrgm:OffsetHDR="0""#

    @Test("The gain map's own XMP, else the primary's: restated in ISO terms, the codes as they are")
    func placements() throws {
        for (describes, origin) in [(2, "its own XMP"), (1, "the primary's XMP")] {
            let source = Self.file(xmp: Self.values, describes: describes)
            let (found, warning) = GainMapSource.find(try HEIFStructure.read(from: source), source: source)
            #expect(warning == nil)
            let gainMap = try #require(found)
            #expect(gainMap.item == 2 && gainMap.codeMapping == nil && gainMap.toneMap == nil && gainMap.hdrBase == nil)
            #expect(gainMap.description == "Adobe gain map (hdrgm values from \(origin), gain map item 2)")
            #expect(gainMap.metadata.alternateHDRHeadroom.value == 2 && gainMap.metadata.channels[0].max.value == 2
                    && gainMap.metadata.channels[0].baseOffset.value == 0 && !gainMap.metadata.baseIsHDR)
        }
    }

    @Test("No values, or unusable ones, or an HDR base that is not PQ or HLG: SDR only, with a warning that says why")
    func notUsed() throws {
        for (xmp, reason) in [(nil as String?, "the gain map (item 2) has no hdrgm values in its XMP or the primary's"),
                              (#"hdrgm:Version="1.0" hdrgm:GainMapMax="2""#, "hdrgm values in its own XMP cannot be used: hdrgm:HDRCapacityMax is missing"),
                              (Self.values + #" hdrgm:BaseRenditionIsHDR="True""#, "the gain map (item 2)'s base image is the HDR rendition")] {
            let source = Self.file(xmp: xmp)
            let (found, warning) = GainMapSource.find(try HEIFStructure.read(from: source), source: source)
            #expect(found == nil)
            #expect(warning?.code == .gainMapNotUsed && warning?.message.contains(reason) == true && warning?.message.hasSuffix("written as SDR only") == true,
                    "\(warning?.message ?? "")")
        }
    }
}
