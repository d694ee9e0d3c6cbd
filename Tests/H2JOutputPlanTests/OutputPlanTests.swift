import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JOutputPlan
@testable import H2JSupport

/// Which files a source's conversion writes, and under which names.
@Suite("Output plans: one file per still image, a stereo pair as one MPO or two files")
struct OutputPlanTests {
    typealias B = BoxBuilder

    /// Items 1 (primary), 2 and 3, with a `ster` group of `pair` when given.
    static func structure(pair: [Int]? = nil) throws -> HEIFStructure {
        var groups: [[UInt8]] = []
        if let pair {
            var ster: [UInt8] = B.fullBox(0) + B.u32(9) + B.u32(pair.count)
            for entity in pair { ster += B.u32(entity) }
            groups = [B.box("grpl", B.box("ster", ster))]
        }
        let meta = B.meta(primary: 1, items: [(1, "hvc1"), (2, "hvc1"), (3, "hvc1")], extraBoxes: groups)
        return try HEIFStructure.read(from: MemoryByteSource(B.ftyp + meta))
    }

    static func names(_ plans: [OutputPlan]) -> [String] {
        plans.map { "\($0.name.suffix):" + $0.items.map(String.init).joined(separator: ",") }
    }

    @Test("--images all: the primary, then each image at its position; primary or a stream: the primary alone")
    func everyImage() throws {
        let structure = try Self.structure()
        #expect(Self.names(OutputPlan.plans(structure, images: .all, stereo: .mpo, toStream: false)) == [":1", "-2:2", "-3:3"])
        #expect(Self.names(OutputPlan.plans(structure, images: .primary, stereo: .mpo, toStream: false)) == [":1"])
        #expect(Self.names(OutputPlan.plans(structure, images: .all, stereo: .mpo, toStream: true)) == [":1"])
    }

    @Test("A stereo pair: one MPO, left first, at the name of the pair's first image; split: -left and -right")
    func stereo() throws {
        let primaryPair = try Self.structure(pair: [1, 2])
        #expect(Self.names(OutputPlan.plans(primaryPair, images: .all, stereo: .mpo, toStream: false)) == [":1,2", "-3:3"])
        #expect(Self.names(OutputPlan.plans(primaryPair, images: .all, stereo: .split, toStream: false)) == ["-left:1", "-right:2", "-3:3"])
        // The primary as the right view: the MPO still takes NAME.jpg, left view first.
        let rightPrimary = try Self.structure(pair: [3, 1])
        #expect(Self.names(OutputPlan.plans(rightPrimary, images: .all, stereo: .mpo, toStream: false)) == [":3,1", "-2:2"])
        let others = try Self.structure(pair: [2, 3])
        #expect(Self.names(OutputPlan.plans(others, images: .all, stereo: .split, toStream: false)) == [":1", "-2-left:2", "-2-right:3"])
        // A group naming an item twice, or one that is no still image, is no pair.
        #expect(Self.names(OutputPlan.plans(try Self.structure(pair: [2, 2]), images: .all, stereo: .mpo, toStream: false)) == [":1", "-2:2", "-3:3"])
        #expect(Self.names(OutputPlan.plans(try Self.structure(pair: [2, 7]), images: .all, stereo: .mpo, toStream: false)) == [":1", "-2:2", "-3:3"])
    }
}

extension OutputPlanTests {
    @Test("--aux: after each image its auxiliary images of the chosen kinds, NAME.<kind>.jpg, a second of a kind NAME.<kind>-2.jpg")
    func auxiliaries() throws {
        func auxC(_ urn: String) -> [UInt8] { B.box("auxC", B.fullBox(0) + Array(urn.utf8) + [0]) }
        let meta = B.meta(primary: 1, items: [(1, "hvc1"), (2, "hvc1"), (3, "hvc1"), (4, "hvc1"), (5, "hvc1"), (6, "hvc1")],
                          references: [B.reference("auxl", from: 3, to: [1]), B.reference("auxl", from: 4, to: [1]),
                                       B.reference("auxl", from: 5, to: [1]), B.reference("auxl", from: 6, to: [2])],
                          properties: [auxC("urn:mpeg:hevc:2015:auxid:2"), auxC("urn:com:apple:photo:2018:aux:portraiteffectsmatte"),
                                       auxC("urn:com:apple:photo:2019:aux:semanticskinmatte")],
                          associations: [(3, [1]), (4, [2]), (5, [3]), (6, [1])])
        let structure = try HEIFStructure.read(from: MemoryByteSource(B.ftyp + meta))
        let all = OutputPlan.plans(structure, images: .all, stereo: .mpo, auxiliaries: Set(AuxiliaryOutput.allCases), toStream: false)
        #expect(Self.names(all) == [":1", ".depth:3", ".matte:4", ".matte-2:5", "-2:2", "-2.depth:6"])
        #expect(all.map(\.master) == [nil, 1, 1, 1, nil, 2])
        let mattes = OutputPlan.plans(structure, images: .primary, stereo: .mpo, auxiliaries: [.matte], toStream: false)
        #expect(Self.names(mattes) == [":1", ".matte:4", ".matte-2:5"])
        #expect(Self.names(OutputPlan.plans(structure, images: .all, stereo: .mpo, auxiliaries: [.matte], toStream: true)) == [":1"])
        #expect(OutputName(checking: ".matte-2")!.kind == "matte")
        #expect(OutputName.primary.kind == "primary" && OutputName.image(2).kind == "image" && OutputName(checking: "-left")!.kind == "image")
        #expect(OutputName(checking: "-2.depth")!.kind == "depth" && OutputName(checking: "-right.matte-2")!.kind == "matte")
    }
}
