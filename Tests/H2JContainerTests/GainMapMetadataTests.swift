import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

/// ISO 21496-1 metadata of a `tmap` item, and what a reader must ignore.
@Suite("Gain-map metadata (ISO 21496-1)")
struct GainMapMetadataTests {
    typealias B = BoxBuilder

    /// A `tmap` body: version 0, minimum and writer versions, flags, then fractions.
    static func body(version: UInt8 = 0, minimum: Int = 0, writer: Int = 0, flags: UInt8 = 0, channels: Int = 1,
                     gamma: Int = 1, extra: [UInt8] = []) -> [UInt8] {
        func pair(_ n: Int, _ d: Int) -> [UInt8] { B.u32(n) + B.u32(d) }
        var bytes = [version] + B.u16(minimum) + B.u16(writer) + [flags]
        bytes += pair(0, 1) + pair(13, 10)                                 // headrooms: 0 and 1.3 stops
        for _ in 0..<channels { bytes += pair(0, 1) + pair(13, 10) + pair(gamma, 1) + pair(1, 64) + pair(1, 64) }
        return bytes + extra
    }

    @Test("One and three channels parse, with their headrooms; a common denominator is read once")
    func parses() throws {
        let one = try GainMapMetadata.parse(Self.body()).get()
        #expect(one.channels.count == 1 && one.alternateHDRHeadroom.value == 1.3 && one.channels[0].baseOffset.value == 1.0 / 64)
        let three = try GainMapMetadata.parse(Self.body(flags: 0x80, channels: 3)).get()
        #expect(three.channels.count == 3)
        // Common denominator (flag 0x08): the denominator once, then numerators only.
        var common: [UInt8] = [0] + B.u16(0) + B.u16(0) + [0x08] + B.u32(10) + B.u32(0) + B.u32(13)
        common += B.u32(0) + B.u32(13) + B.u32(10) + B.u32(1) + B.u32(1)
        let shared = try GainMapMetadata.parse(common).get()
        #expect(shared.alternateHDRHeadroom.value == 1.3 && shared.channels[0].gamma.value == 1)
        // Signed numerators: a negative minimum.
        var negative = Self.body()
        negative.replaceSubrange(22..<26, with: B.u32(Int(UInt32(bitPattern: -5))))
        #expect(try GainMapMetadata.parse(negative).get().channels[0].min.value == -5)
    }

    @Test("What ISO 21496-1 says to ignore is refused with the reason; a newer writer's extra bytes are allowed")
    func refusals() throws {
        func reason(_ bytes: [UInt8]) -> String? {
            if case .failure(let refusal) = GainMapMetadata.parse(bytes) { return refusal.description } else { return nil }
        }
        #expect(reason(Self.body(version: 1)) == "'tmap' version 1 is not supported")
        #expect(reason(Self.body(minimum: 99, writer: 99)) == "gain-map metadata minimum version 99 is not supported")
        #expect(reason(Self.body(gamma: 0)) == "gamma 0.0 is not positive")
        #expect(reason(Self.body(extra: [1, 2, 3, 4])) == "4 bytes follow the gain-map metadata of writer version 0")
        #expect(reason(Self.body(writer: 99, extra: [1, 2, 3, 4])) == nil)
        #expect(reason([]) == "the 'tmap' item is empty")
        let whole = Self.body(flags: 0x88, channels: 3)
        for cut in 0..<whole.count { _ = GainMapMetadata.parse(Array(whole.prefix(cut))) }
        for cut in 1..<Self.body().count { #expect(reason(Array(Self.body().prefix(cut))) != nil, "cut at \(cut)") }
    }
}

extension GainMapMetadataTests {
    @Test("Written as a JPEG's ISO APP2 payload, metadata parses back as it was (one and three channels, signed values)")
    func writtenPayloadRoundTrips() throws {
        for flags: UInt8 in [0, 0x80, 0xC0] {
            let parsed = try GainMapMetadata.parse(Self.body(flags: flags, channels: flags & 0x80 != 0 ? 3 : 1)).get()
            #expect(try GainMapMetadata.parse([0] + parsed.isoPayload).get() == parsed, "flags \(flags)")
        }
        let negative = GainMapMetadata(useBaseColourSpace: false, baseHDRHeadroom: .init(0, 1), alternateHDRHeadroom: .init(2, 1),
                                       channels: [.init(min: .init(-3, 2), max: .init(2, 1), gamma: .init(1, 1),
                                                        baseOffset: .init(-1, 64), alternateOffset: .init(1, 64))])
        #expect(try GainMapMetadata.parse([0] + negative.isoPayload).get() == negative)
    }

    @Test("Apple's gain map in ISO terms: 0 to log2(headroom) stops, gamma 1; its codes remapped so both rules give one HDR value")
    func appleGainMap() throws {
        let metadata = GainMapMetadata.apple(headroom: 4)
        #expect(metadata.channels.count == 1 && metadata.channels[0].max.value == 2 && metadata.channels[0].gamma.value == 1)
        #expect(metadata.alternateHDRHeadroom.value == 2 && metadata.baseHDRHeadroom.value == 0 && !metadata.baseIsHDR)
        let table = GainMapMetadata.appleCodeMapping(headroom: 4)
        #expect(table.count == 256 && table[0] == 0 && table[255] == 255)
        #expect(zip(table, table.dropFirst()).allSatisfy { $0 <= $1 }, "monotonic")
        for code in [30, 128, 200] {
            // Apple: 1 + (H − 1)·L(v); ISO: 2^(log2(H)·g') — within the 8-bit step.
            let v = Double(code) / 255
            let linear = v < 0.081 ? v / 4.5 : Math.pow((v + 0.099) / 1.099, 1 / 0.45)
            let apple = 1 + 3 * linear, iso = Math.exp2(2 * Double(table[code]) / 255)
            #expect(abs(iso / apple - 1) < 0.01, "code \(code): \(apple) against \(iso)")
        }
        #expect(GainMapMetadata.appleCodeMapping(headroom: 1).allSatisfy { $0 == 0 }, "no headroom, no gain")
    }

    @Test("Base and alternate exchanged: headrooms and offsets change places, the gains stay (they go from SDR towards HDR)")
    func exchanged() throws {
        let channel = GainMapMetadata.Channel(min: .init(-1, 4), max: .init(3, 2), gamma: .init(9, 10), baseOffset: .init(1, 64),
                                              alternateOffset: .init(1, 32))
        let hdrBase = GainMapMetadata(useBaseColourSpace: false, baseHDRHeadroom: .init(13, 10), alternateHDRHeadroom: .init(0, 1),
                                      channels: [channel, channel, channel])
        let sdrBase = hdrBase.exchangingBaseAndAlternate
        #expect(hdrBase.baseIsHDR && !sdrBase.baseIsHDR && sdrBase.useBaseColourSpace)
        #expect(sdrBase.baseHDRHeadroom == .init(0, 1) && sdrBase.alternateHDRHeadroom == .init(13, 10))
        #expect(sdrBase.channels.allSatisfy { $0.baseOffset == .init(1, 32) && $0.alternateOffset == .init(1, 64) })
        #expect(sdrBase.channels.allSatisfy { $0.min == channel.min && $0.max == channel.max && $0.gamma == channel.gamma })
    }

    @Test("A pitm naming a tmap item: its base image is the primary, the tmap preferred without an altr group; libheif reads the pitm as the base")
    func toneMapAsPrimary() throws {
        let body = Self.body()
        let file = B.box("ftyp", Array("heic".utf8) + B.u32(0) + Array("mif1heictmap".utf8)) + B.meta(primary: 3, items: [(1, "hvc1"), (2, "hvc1"), (3, "tmap")],
                                                            references: [B.reference("dimg", from: 3, to: [1, 2])],
                                                            extraBoxes: [B.iloc([.init(id: 3, construction: 1, extents: [(0, 0, UInt64(body.count))])]),
                                                                         B.idat(body)])
        let source = MemoryByteSource(file)
        let structure = try HEIFStructure.read(from: source)
        #expect(structure.primaryID == 1 && structure.primaryToneMap == 3)
        let tmap = try #require(structure.toneMappedImage(from: source))
        #expect(tmap.base == 1 && tmap.gainMap == 2 && (try? tmap.metadata.get()) != nil)
        let patched = structure.namingBaseAsPrimary(source)
        let reread = try HEIFStructure.read(from: patched)
        #expect(reread.primaryID == 1 && reread.primaryToneMap == nil && patched.size == source.size)
        #expect(try patched.read(at: 0, count: patched.size).enumerated().filter { $0.element != file[$0.offset] }.count == 1)
    }
}
