import H2JTestSupport
import Testing
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

/// Deterministic random mutation of XMP packets, with properties added and small size
/// limits so that every step of `XMPPacketFitter` runs: `make` must return, never trap;
/// whatever it writes must fit, its Extended XMP must be consistent, and a packet that
/// was well-formed XML must stay so.
@Suite("XMP mutation fuzzing")
struct XMPFuzzTests {
    typealias S = XMPTestSupport

    static let seeds: [UInt64] = [0x5EED_0F_0A3F, 0xC0FFEE, 0xBAD_F00D, 0x1234_5678_9ABC]
    /// A quarter in debug builds.
    static let iterationsPerSeed = TestScale.iterations(1_000)

    /// Bytes that make or break structure.
    static let snippets: [[UInt8]] = [
        "<", ">", "/>", "\"", "'", "=", " ", "</rdf:Description>", "<rdf:Description rdf:about=''>", "</rdf:RDF>", "<rdf:RDF>",
        "<!--", "-->", "<?xpacket end='w'?>", "<![CDATA[", "h2j:mode=\"x\" ", "xmlns:dc='urn:x' ", "<dc:x>v</dc:x>", "<h2j:version>1</h2j:version>",
        "xmpNote:HasExtendedXMP='0' ", "\u{0}", "é",
    ].map { Array($0.utf8) } + [[0xE9], [0xFF, 0xFE], [0x80]]

    static var bases: [[UInt8]] {
        [ExtendedXMPTests.source(history: 300, description: 500), XMPInsertionTests.exiftoolStyle, XMPInsertionTests.selfClosing,
         XMPInsertionTests.severalDescriptions].map { Array($0.utf8) } + [XMPInsertionTests.latin1]
    }

    func mutate(_ base: [UInt8], _ rng: inout EXIFTestSupport.LCG) -> [UInt8] {
        var bytes = base
        for _ in 0..<rng.below(4) {
            guard !bytes.isEmpty else { break }
            let at = rng.below(bytes.count)
            switch rng.below(5) {
            case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            case 1, 2: bytes.insert(contentsOf: Self.snippets[rng.below(Self.snippets.count)], at: at)
            case 3: bytes.removeSubrange(at..<min(bytes.count, at + 1 + rng.below(40)))
            default:
                let from = rng.below(bytes.count)
                bytes.insert(contentsOf: bytes[from..<min(bytes.count, from + rng.below(200))], at: at)
            }
        }
        return bytes
    }

    @Test("1,000 mutated packets per seed (a quarter in debug) never trap; what is written fits and is consistent", arguments: seeds)
    func mutations(seed: UInt64) throws {
        var rng = EXIFTestSupport.LCG(state: seed)
        let bases = Self.bases
        var extendedCount = 0, droppedCount = 0, wellFormedCount = 0
        for i in 0..<Self.iterationsPerSeed {
            let packet = i % 10 == 0 ? bases[i % bases.count] : mutate(bases[i % bases.count], &rng)
            let limit = i % 4 == 0 ? XMPForJPEG.maxPacketBytes : 150 + rng.below(2_500)
            var adding = rng.below(3) == 0 ? [] : S.mark("m\(i).heic")
            if rng.below(2) == 0 {
                adding.append(XMPProperty(.exif, "UserComment", .languageAlternative(String(repeating: "c&é", count: rng.below(1_200)))))
            }
            let result = XMPForJPEG.make(packet: packet, width: 8, height: 6, stripGPS: i % 3 == 0, adding: adding, packetLimit: limit)
            let context = "seed \(seed) iteration \(i)"
            let wellFormed = XMPTextEncoding(of: packet) == .utf8 && XMPPacketStructure(packet) != nil && S.xmlError(packet) == nil
            if let payload = result.payload {
                #expect(payload.starts(with: JPEGAPPSignature.xmp) && payload.count <= limit + JPEGAPPSignature.xmp.count, "\(context)")
            } else {
                droppedCount += 1
            }
            if !result.extendedPayloads.isEmpty {
                extendedCount += 1
                let reassembled = try #require(S.reassemble(result.extendedPayloads), "\(context)")
                #expect(reassembled.guid == MD5.hexDigest(reassembled.packet, uppercase: true), "\(context)")
                #expect(S.count(of: "xmpNote:HasExtendedXMP=\"\(reassembled.guid)\"", in: S.text(result.payload)) == 1, "\(context)")
                if wellFormed { #expect(S.xmlError(reassembled.packet) == nil, "\(context)") }
            }
            // A well-formed UTF-8 packet stays well-formed (a malformed one gets nothing
            // inserted, but what moves out of it is as malformed as it was).
            if wellFormed, let payload = result.payload {
                wellFormedCount += 1
                #expect(S.xmlError(S.packet(payload)) == nil, "\(context)")
            }
        }
        // The limits make every path run.
        #expect(extendedCount > Self.iterationsPerSeed / 10 && droppedCount > Self.iterationsPerSeed / 20 && wellFormedCount > Self.iterationsPerSeed / 10,
                "\(extendedCount) extended, \(droppedCount) dropped, \(wellFormedCount) well-formed")
    }
}
