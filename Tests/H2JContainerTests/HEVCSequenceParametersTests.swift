import Foundation
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JSupport

@Suite("HEVC sequence parameter set: head and video signal type")
struct HEVCSequenceParametersTests {
    /// Writes bits MSB first, with Exp-Golomb codes, and inserts emulation prevention.
    struct BitWriter {
        var bits: [Bool] = []
        mutating func put(_ value: Int, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> i & 1 == 1) }
        }
        mutating func golomb(_ value: Int) {
            let code = value + 1
            let length = Int.bitWidth - code.leadingZeroBitCount
            put(0, length - 1)
            put(code, length)
        }
        var nal: [UInt8] {
            var padded = bits + [true]
            while padded.count % 8 != 0 { padded.append(false) }
            var bytes: [UInt8] = []
            for i in stride(from: 0, to: padded.count, by: 8) {
                bytes.append(padded[i..<(i + 8)].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
            }
            // Emulation prevention: 00 00 0x (x ≤ 3) gets a 03 inserted.
            var out: [UInt8] = [0x42, 0x01]
            var zeros = 0
            for byte in bytes {
                if zeros >= 2 && byte <= 3 { out.append(3); zeros = 0 }
                out.append(byte)
                zeros = byte == 0 ? zeros + 1 : 0
            }
            return out
        }
    }

    func sps(chroma: Int, width: Int, height: Int, window: (Int, Int, Int, Int)? = nil, luma: Int = 8, chromaDepth: Int = 8,
             subLayers: Int = 0, tail: (inout BitWriter) -> Void = { $0.put(0, 40) }) -> [UInt8] {
        var w = BitWriter()
        w.put(0, 4)                 // sps_video_parameter_set_id
        w.put(subLayers, 3)         // sps_max_sub_layers_minus1
        w.put(1, 1)                 // temporal_id_nesting
        w.put(0x01600000, 32)       // profile space/tier/idc, first compatibility bits: zeros mostly
        w.put(0, 32); w.put(0, 32)  // rest of the 96-bit general profile + level
        for _ in 0..<subLayers { w.put(1, 1); w.put(1, 1) }  // profile and level present
        if subLayers > 0 { w.put(0, 2 * (8 - subLayers)) }
        for _ in 0..<subLayers { w.put(0, 88); w.put(0, 8) }
        w.golomb(0)                 // sps_seq_parameter_set_id
        w.golomb(chroma)
        if chroma == 3 { w.put(0, 1) }
        w.golomb(width)
        w.golomb(height)
        if let window {
            w.put(1, 1)
            [window.0, window.1, window.2, window.3].forEach { w.golomb($0) }
        } else {
            w.put(0, 1)
        }
        w.golomb(luma - 8)
        w.golomb(chromaDepth - 8)
        tail(&w)                    // what follows the head; 40 zero bits by default: no valid ue(v)
        return w.nal
    }

    @Test("Chroma format, bit depths and the windowed size are read")
    func basics() throws {
        let parsed = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 512, height: 512)))
        #expect(parsed == HEVCSequenceParameters(chromaFormat: 1, bitDepthLuma: 8, bitDepthChroma: 8, width: 512, height: 512,
                                                            videoSignal: nil))
        let windowed = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 1088, height: 64, window: (0, 4, 0, 2))))
        #expect(windowed.width == 1080 && windowed.height == 60)
        let mono = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 0, width: 30, height: 100, window: (0, 1, 0, 0), luma: 10)))
        #expect(mono.chromaFormat == 0 && mono.width == 29 && mono.bitDepthLuma == 10)
        let full = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 3, width: 64, height: 48, subLayers: 2)))
        #expect(full.chromaFormat == 3 && full.width == 64)
    }

    @Test("Not an SPS, cut short, or nonsense values give nil, never a trap")
    func refusals() {
        #expect(HEVCSequenceParameters.parse(nal: [0x40, 0x01, 0xFF]) == nil)  // a VPS
        let good = sps(chroma: 1, width: 512, height: 512)
        // The header, the first 8 bits and the 96-bit profile take 15 bytes.
        for length in 0..<15 {
            #expect(HEVCSequenceParameters.parse(nal: Array(good.prefix(length))) == nil, "prefix \(length)")
        }
        #expect(HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 16, height: 16, window: (9, 0, 0, 0))) == nil)
        var generator = SeededGenerator("HEVCSequenceParametersTests/refusals")
        for _ in 0..<TestScale.iterations(5000) {
            var bytes = good
            bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = HEVCSequenceParameters.parse(nal: bytes)
            _ = HEVCSequenceParameters.parse(nal: [0x42, 0x01] + (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
    }

    /// The SPS after the head up to the VUI's video signal type, with the choices
    /// that change what follows.
    struct Tail {
        var subLayerOrderingForAll = true
        var scalingLists: [[Int]]? = nil         // per list: [] predicted, else coefficients (dc first for sizeID > 1)
        var pcm = false
        var shortTermSets: [(negative: Int, positive: Int)?] = []  // nil: inter predicted, every use flag 0
        var longTerm = 0
        var vui: (aspect: Int?, overscan: Bool, signal: (full: Bool, colour: (Int, Int, Int)?)?)? = nil

        func write(_ w: inout BitWriter, subLayers: Int) {
            w.golomb(4)                                        // log2_max_pic_order_cnt_lsb_minus4: 8 bits
            w.put(subLayerOrderingForAll ? 1 : 0, 1)
            for _ in 0..<(subLayerOrderingForAll ? subLayers + 1 : 1) { w.golomb(4); w.golomb(2); w.golomb(0) }
            [0, 3, 0, 3, 1, 1].forEach { w.golomb($0) }        // block sizes, hierarchy depths
            w.put(scalingLists == nil ? 0 : 1, 1)
            if let scalingLists {
                w.put(1, 1)                                    // sps_scaling_list_data_present_flag
                var lists = scalingLists.makeIterator()
                for sizeID in 0..<4 {
                    for _ in stride(from: 0, to: 6, by: sizeID == 3 ? 3 : 1) {
                        let list = lists.next() ?? []
                        w.put(list.isEmpty ? 0 : 1, 1)
                        if list.isEmpty { w.golomb(0) } else { list.forEach { w.golomb($0) } }
                    }
                }
            }
            w.put(0b10, 2)                                     // amp on, SAO off
            w.put(pcm ? 1 : 0, 1)
            if pcm { w.put(0x77, 8); w.golomb(0); w.golomb(1); w.put(1, 1) }
            w.golomb(shortTermSets.count)
            var previous = 0
            for (index, set) in shortTermSets.enumerated() {
                if index > 0 { w.put(set == nil ? 1 : 0, 1) }
                if let set {
                    w.golomb(set.negative); w.golomb(set.positive)
                    for _ in 0..<(set.negative + set.positive) { w.golomb(0); w.put(1, 1) }
                    previous = set.negative + set.positive
                } else {
                    w.put(1, 1); w.golomb(0)                   // delta_rps_sign, abs_delta_rps_minus1
                    for j in 0...previous { w.put(j == 0 ? 1 : 0, 1); if j > 0 { w.put(j % 2, 1) } }
                    previous = 1 + (previous + 1) / 2
                }
            }
            w.put(longTerm > 0 ? 1 : 0, 1)
            if longTerm > 0 { w.golomb(longTerm); for i in 0..<longTerm { w.put(i, 8); w.put(1, 1) } }
            w.put(0b11, 2)                                     // temporal MVP, strong intra smoothing
            w.put(vui == nil ? 0 : 1, 1)
            guard let vui else { w.put(0, 7); return }
            w.put(vui.aspect == nil ? 0 : 1, 1)
            if let aspect = vui.aspect { w.put(aspect, 8); if aspect == 255 { w.put(4, 16); w.put(3, 16) } }
            w.put(vui.overscan ? 1 : 0, 1)
            if vui.overscan { w.put(1, 1) }
            w.put(vui.signal == nil ? 0 : 1, 1)
            if let signal = vui.signal {
                w.put(5, 3); w.put(signal.full ? 1 : 0, 1); w.put(signal.colour == nil ? 0 : 1, 1)
                if let colour = signal.colour { w.put(colour.0, 8); w.put(colour.1, 8); w.put(colour.2, 8) }
            }
            w.put(0, 20)                                       // chroma loc, timing… never read
        }
    }

    func signal(_ tail: Tail, subLayers: Int = 0) -> NCLX? {
        HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 64, height: 64, subLayers: subLayers) { tail.write(&$0, subLayers: subLayers) })?.videoSignal
    }

    @Test("The VUI's video signal type is read past scaling lists, PCM, short- and long-term reference sets")
    func videoSignal() throws {
        let p3 = NCLX(primaries: 12, transfer: 18, matrix: 14, fullRange: true)
        var tail = Tail(vui: (nil, false, (true, (12, 18, 14))))
        #expect(signal(tail) == p3)
        #expect(signal(tail, subLayers: 2) == p3)
        tail.subLayerOrderingForAll = false
        #expect(signal(tail, subLayers: 3) == p3)
        // Coded lists of every size: 16 coefficients at size 0, 64 (+ dc) above; the rest predicted.
        tail.scalingLists = [Array(repeating: 1, count: 16), [], [], [], [], [], Array(repeating: 2, count: 64)]
            + Array(repeating: [], count: 5) + [[3] + Array(repeating: 0, count: 64)] + Array(repeating: [], count: 5)
            + [[8] + Array(repeating: 5, count: 64), []]
        tail.pcm = true
        tail.shortTermSets = [(2, 1), nil, nil, (0, 16), nil]
        tail.longTerm = 32
        tail.vui = (255, true, (false, (1, 1, 1)))
        #expect(signal(tail) == NCLX(primaries: 1, transfer: 1, matrix: 1, fullRange: false))
        tail.vui = (1, false, (true, nil))
        #expect(signal(tail) == NCLX(primaries: 2, transfer: 2, matrix: 2, fullRange: true))
        tail.vui = (nil, true, nil)
        #expect(signal(tail) == .unspecifiedVideoSignal)
        tail.vui = nil
        #expect(signal(tail) == .unspecifiedVideoSignal)
        // Beyond the standard's bounds: the tail is unreadable, the head still good.
        tail.longTerm = 33
        let unbounded = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 64, height: 48) { tail.write(&$0, subLayers: 0) }))
        #expect(unbounded.videoSignal == nil && unbounded.width == 64 && unbounded.height == 48)
        tail.longTerm = 0
        tail.shortTermSets = [(17, 0)]
        #expect(signal(tail) == nil)
        tail.shortTermSets = Array(repeating: (0, 0), count: 65)
        #expect(signal(tail) == nil)
    }

    @Test("A tail cut anywhere leaves the head; mutated tails never trap")
    func cutTails() throws {
        let tail = Tail(scalingLists: [Array(repeating: 1, count: 16)], pcm: true, shortTermSets: [(1, 1), nil], longTerm: 2,
                        vui: (255, true, (true, (1, 13, 6))))
        let whole = sps(chroma: 1, width: 64, height: 64) { tail.write(&$0, subLayers: 0) }
        #expect(HEVCSequenceParameters.parse(nal: whole)?.videoSignal == NCLX(primaries: 1, transfer: 13, matrix: 6, fullRange: true))
        let head = try #require(HEVCSequenceParameters.parse(nal: sps(chroma: 1, width: 64, height: 64, tail: { _ in })))
        for length in 16..<whole.count {
            let parsed = HEVCSequenceParameters.parse(nal: Array(whole.prefix(length)))
            #expect(parsed == nil || parsed?.sameFormat(as: head) == true, "prefix \(length)")
        }
        var generator = SeededGenerator("HEVCSequenceParametersTests/cutTails")
        for _ in 0..<TestScale.iterations(5000) {
            var bytes = whole
            bytes[Int.random(in: 16..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = HEVCSequenceParameters.parse(nal: bytes)
        }
    }

    @Test("Every real SPS in the samples and corpora reads to its video signal type")
    func realFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var found: [String: NCLX] = [:]
        var unreadable: [String] = []
        for tree in ["Samples", "../shared/corpus", "../shared/corpus-wide"] {
            let directory = root.appendingPathComponent(tree)
            guard let names = FileManager.default.subpaths(atPath: directory.path) else { continue }
            for name in names.sorted() {
                guard let bytes = try? [UInt8](Data(contentsOf: directory.appendingPathComponent(name))),
                      ImageFormat.sniff(Array(bytes.prefix(256))).isHEIF,
                      let source = try? MinimizedImage.translating(MemoryByteSource(bytes)) ?? MemoryByteSource(bytes),
                      let structure = try? HEIFStructure.read(from: source) else { continue }
                for property in structure.properties where property.type == "hvcC" {
                    guard let configuration = try? HEVCConfiguration.parse(property.payload),
                          let sps = configuration.parameterSets.lazy.compactMap(HEVCSequenceParameters.parse(nal:)).first else { continue }
                    if let signal = sps.videoSignal { found["\(tree)/\(name)"] = signal } else { unreadable.append("\(tree)/\(name)") }
                }
            }
        }
        #expect(unreadable.isEmpty, "\(unreadable)")
        #expect(found.count >= 20)
        // An iPhone-like sample (full range BT.601, no colour description) and one whose VUI
        // says Display P3 (12), a code libde265 reported as 2.
        #expect(found["Samples/photo-exif-gps-xmp-icc.heic"] == NCLX(primaries: 2, transfer: 2, matrix: 6, fullRange: true))
        #expect(found["Samples/p3-nclx-only.heic"] == NCLX(primaries: 12, transfer: 13, matrix: 6, fullRange: true))
    }
}
