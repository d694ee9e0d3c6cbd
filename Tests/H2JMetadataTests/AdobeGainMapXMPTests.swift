import Testing
@testable import H2JMetadata

/// Adobe's gain-map parameters (`hdrgm:`) as a Samsung or Adobe gain map's XMP states them.
@Suite("Adobe gain-map XMP (hdrgm)")
struct AdobeGainMapXMPTests {
    static func packet(_ body: String) -> [UInt8] {
        Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
               + "<rdf:Description rdf:about=\"\" xmlns:hdrgm=\"http://ns.adobe.com/hdr-gain-map/1.0/\" " + body
               + "</rdf:Description></rdf:RDF></x:xmpmeta>").utf8)
    }

    @Test("Attribute form with defaults; element form with rdf:Seq of three; an HDR base")
    func reads() throws {
        let single = try #require(AdobeGainMapXMP.read(Self.packet(
            #"hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2">"#))).get()
        #expect(single.gainMapMin == [0] && single.gainMapMax == [2] && single.gamma == [1] && single.offsetSDR == [1.0 / 64])
        #expect(single.hdrCapacityMin == 0 && single.hdrCapacityMax == 2 && !single.baseRenditionIsHDR && single.channelCount == 1)
        let three = try #require(AdobeGainMapXMP.read(Self.packet("""
            hdrgm:Version="1.0" hdrgm:BaseRenditionIsHDR="True" hdrgm:HDRCapacityMin="0" hdrgm:HDRCapacityMax="1.3">
            <hdrgm:GainMapMin><rdf:Seq><rdf:li>-0.25</rdf:li><rdf:li>-0.5</rdf:li><rdf:li>0</rdf:li></rdf:Seq></hdrgm:GainMapMin>
            <hdrgm:GainMapMax><rdf:Seq><rdf:li>1.25</rdf:li><rdf:li>1.5</rdf:li><rdf:li> 1 </rdf:li></rdf:Seq></hdrgm:GainMapMax>
            <hdrgm:Gamma>0.9</hdrgm:Gamma>
            """))).get()
        #expect(three.gainMapMin == [-0.25, -0.5, 0] && three.gainMapMax == [1.25, 1.5, 1] && three.gamma == [0.9])
        #expect(three.baseRenditionIsHDR && three.channelCount == 3 && three.value(three.gamma, 2) == 0.9)
    }

    @Test("No hdrgm:Version is no gain map; missing, malformed or contradictory values are refused by name")
    func refusals() {
        #expect(AdobeGainMapXMP.read(Self.packet(#"hdrgm:GainMapMax="2">"#)) == nil)
        func reason(_ body: String) -> String? {
            guard case .failure(let refusal)? = AdobeGainMapXMP.read(Self.packet(#"hdrgm:Version="1.0" "# + body)) else { return nil }
            return refusal.description
        }
        #expect(reason(#"hdrgm:HDRCapacityMax="2">"#) == "hdrgm:GainMapMax is missing")
        #expect(reason(#"hdrgm:GainMapMax="2">"#) == "hdrgm:HDRCapacityMax is missing")
        #expect(reason(#"hdrgm:GainMapMax="two" hdrgm:HDRCapacityMax="2">"#) == "hdrgm:GainMapMax is not one number or three")
        #expect(reason(#"hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2" hdrgm:Gamma="0">"#) == "hdrgm:Gamma 0.0 is not positive")
        #expect(reason(#"hdrgm:GainMapMin="3" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2">"#)
                == "hdrgm:GainMapMin 3.0 is above hdrgm:GainMapMax 2.0")
        #expect(reason(#"hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="0">"#) == "hdrgm:HDRCapacityMax 0.0 is not above hdrgm:HDRCapacityMin 0.0")
        #expect(AdobeGainMapXMP.read(Array(#"<x hdrgm:Version="2.0"/>"#.utf8)) == .failure(.init("hdrgm:Version 2.0 is not 1.0")))
    }
}
