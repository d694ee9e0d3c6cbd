import H2JSupport

/// How an uncompressed image lays out its samples: the `uncC` box (ISO/IEC 23001-17
/// §5.2.2) with each component's meaning from `cmpd` (§5.2.1). Version 1 `uncC` boxes
/// name a profile instead (Table 5), expanded here to the fields it stands for.
///
/// Invariant: `init` never traps; a value holds only what the decoder takes: 1–16-bit
/// unsigned samples, components whose meaning it knows (others ignored or refused),
/// block sizes up to 8 bytes, and interleavings and samplings that fit the components.
package struct UncompressedFormat: Equatable, Sendable {
    /// What a component holds, from its `cmpd` type.
    package enum Role: Equatable, Sendable {
        case gray, luma, cb, cr, red, green, blue, alpha
        /// Depth, disparity, padding or a type given by URI: read and dropped.
        case ignored
    }

    package struct Component: Equatable, Sendable {
        package let role: Role
        /// Bits per sample, 1–16.
        package let bitDepth: Int
        /// Bytes the sample is stored in (its value in the low bits), or 0: packed.
        package let alignSize: Int
    }

    /// §5.2.2 Table 4.
    package enum Interleave: Int, Sendable {
        case component = 0, pixel, mixed, row, tileComponent, multiY
    }

    package enum Sampling: Int, Sendable {
        case none = 0, s422, s420, s411
        /// Luma samples per chroma sample across and down.
        package var factors: (horizontal: Int, vertical: Int) {
            switch self {
            case .none: (1, 1)
            case .s422: (2, 1)
            case .s420: (2, 2)
            case .s411: (4, 1)
            }
        }
    }

    /// The colour the components make up.
    package enum Model: Sendable {
        case gray, rgb, ycbcr
    }

    /// In stored order (a multi-Y group lists each luma sample of the group).
    package let components: [Component]
    package let sampling: Sampling
    package let interleave: Interleave
    /// Bytes of one block (0: samples packed bit after bit).
    package let blockSize: Int
    package let componentsLittleEndian: Bool
    package let blockPadLSB: Bool
    package let blockLittleEndian: Bool
    package let blockReversed: Bool
    /// Bytes of one pixel (pixel and multi-Y interleaving), or 0.
    package let pixelSize: Int
    package let rowAlignSize: Int
    package let tileAlignSize: Int
    package let tileColumns: Int
    package let tileRows: Int
    package let model: Model
    package var hasAlpha: Bool { components.contains { $0.role == .alpha } }

    /// Reads `uncC` (FullBox payload) with `cmpd` (Box payload; nil when absent, as a
    /// version 1 profile allows).
    package init(uncC: [UInt8], cmpd: [UInt8]?) throws(UncompressedError) {
        let reader = ByteReader(uncC)
        guard let version = reader.u8(0), let profile = reader.fourCC(4) else { throw .malformed("'uncC' box is cut short") }
        switch version {
        case 1:
            guard let expanded = Self.profiles[profile] else {
                throw .unsupported("'uncC' profile '\(profile)' is not one of ISO/IEC 23001-17 Table 5")
            }
            let roles = expanded.types.map(Self.role(type:))
            let components = try roles.map { (role) throws(UncompressedError) -> Component in
                Component(role: try role.get(), bitDepth: expanded.bitDepth, alignSize: 0)
            }
            try self.init(components: components, sampling: expanded.sampling, interleave: expanded.interleave,
                          blockSize: expanded.blockSize, componentsLittleEndian: false, blockPadLSB: expanded.padLSB,
                          blockLittleEndian: expanded.blockLittleEndian, blockReversed: expanded.reversed, pixelSize: 0,
                          rowAlignSize: 0, tileAlignSize: 0, tileColumns: 1, tileRows: 1)
        case 0:
            let types = try Self.componentTypes(cmpd)
            guard let count = reader.u32(8), Int(count) <= types.count * 64 + 64 else { throw .malformed("'uncC' box is cut short") }
            var components: [Component] = []
            var offset = 12
            for _ in 0..<Int(count) {
                guard let index = reader.u16(offset), let depth = reader.u8(offset + 2), let format = reader.u8(offset + 3),
                      let align = reader.u8(offset + 4) else { throw .malformed("'uncC' box is cut short in its component list") }
                offset += 5
                guard Int(index) < types.count else {
                    throw .malformed("'uncC' names component \(index), but 'cmpd' lists \(types.count)")
                }
                guard format == 0 else {
                    let kind = format < 4 ? ["unsigned", "floating-point", "complex", "signed"][Int(format)] : "format \(format)"
                    throw .unsupported("\(kind) samples are not decoded (unsigned integers only)")
                }
                let bitDepth = Int(depth) + 1
                guard bitDepth <= 16 else { throw .unsupported("\(bitDepth)-bit samples are not decoded (1 to 16 bits only)") }
                guard align == 0 || (Int(align) * 8 >= bitDepth && align <= 4) else {
                    throw .malformed("a \(bitDepth)-bit component cannot be aligned to \(align) bytes")
                }
                components.append(Component(role: try types[Int(index)].get(), bitDepth: bitDepth, alignSize: Int(align)))
            }
            guard let sampling = reader.u8(offset), let interleave = reader.u8(offset + 1), let blockSize = reader.u8(offset + 2),
                  let flags = reader.u8(offset + 3), let pixelSize = reader.u32(offset + 4), let rowAlign = reader.u32(offset + 8),
                  let tileAlign = reader.u32(offset + 12), let columns = reader.u32(offset + 16), let rows = reader.u32(offset + 20)
            else { throw .malformed("'uncC' box is cut short after its components") }
            guard let samplingValue = Sampling(rawValue: Int(sampling)) else { throw .malformed("unknown sampling type \(sampling)") }
            guard let interleaveValue = Interleave(rawValue: Int(interleave)) else { throw .malformed("unknown interleave type \(interleave)") }
            try self.init(components: components, sampling: samplingValue, interleave: interleaveValue, blockSize: Int(blockSize),
                          componentsLittleEndian: flags & 0x80 != 0, blockPadLSB: flags & 0x40 != 0,
                          blockLittleEndian: flags & 0x20 != 0, blockReversed: flags & 0x10 != 0, pixelSize: Int(pixelSize),
                          rowAlignSize: Int(rowAlign), tileAlignSize: Int(tileAlign),
                          tileColumns: Int(columns) + 1, tileRows: Int(rows) + 1)
        default:
            throw .unsupported("'uncC' version \(version)")
        }
    }

    /// Checks the combination the fields make.
    private init(components: [Component], sampling: Sampling, interleave: Interleave, blockSize: Int,
                 componentsLittleEndian: Bool, blockPadLSB: Bool, blockLittleEndian: Bool, blockReversed: Bool,
                 pixelSize: Int, rowAlignSize: Int, tileAlignSize: Int, tileColumns: Int, tileRows: Int) throws(UncompressedError) {
        let roles = Set(components.map(\.role))
        if roles.isSuperset(of: [.red, .green, .blue]) {
            model = .rgb
        } else if roles.isSuperset(of: [.luma, .cb, .cr]) {
            model = .ycbcr
        } else if roles.contains(.gray) || roles.contains(.luma) {
            model = .gray
        } else {
            throw .unsupported("no colour components (monochrome, Y, Cb, Cr, R, G, B) to show")
        }
        guard sampling == .none || model == .ycbcr else { throw .malformed("chroma subsampling of an image without Cb and Cr") }
        guard blockSize <= 8 else { throw .unsupported("blocks of \(blockSize) bytes (at most 8)") }
        let blockBits = blockSize * 8
        if blockSize > 0, let widest = components.map(\.bitDepth).max(), widest > blockBits {
            throw .malformed("a \(widest)-bit component does not fit a \(blockSize)-byte block")
        }
        switch interleave {
        case .pixel:
            guard sampling == .none else { throw .malformed("pixel interleaving with chroma subsampling") }
        case .row:
            guard sampling == .none else { throw .unsupported("row interleaving with chroma subsampling") }
        case .mixed:
            guard model == .ycbcr, sampling != .none else { throw .malformed("mixed interleaving without subsampled Cb and Cr") }
        case .multiY:
            let lumas = components.filter { $0.role == .luma }.count
            guard model == .ycbcr, sampling == .s422 || sampling == .s411, lumas == sampling.factors.horizontal,
                  components.filter({ $0.role == .cb }).count == 1, components.filter({ $0.role == .cr }).count == 1 else {
                throw .malformed("multi-Y interleaving needs 4:2:2 or 4:1:1 and one Y per sample of a group, one Cb and one Cr")
            }
        case .component, .tileComponent:
            break
        }
        if blockSize > 0, interleave != .pixel, interleave != .multiY, components.contains(where: { $0.bitDepth * 2 <= blockBits }) {
            throw .unsupported("several samples in one \(blockSize)-byte block outside pixel interleaving")
        }
        if componentsLittleEndian, blockSize == 0,
           components.contains(where: { $0.bitDepth > 8 && $0.bitDepth % 8 != 0 && $0.alignSize == 0 }) {
            throw .unsupported("little-endian samples that are not whole bytes")
        }
        guard tileColumns > 0, tileRows > 0 else { throw .malformed("\(tileColumns)×\(tileRows) tiles") }
        self.components = components
        self.sampling = sampling
        self.interleave = interleave
        self.blockSize = blockSize
        self.componentsLittleEndian = componentsLittleEndian
        self.blockPadLSB = blockPadLSB
        self.blockLittleEndian = blockLittleEndian
        self.blockReversed = blockReversed
        self.pixelSize = pixelSize
        self.rowAlignSize = rowAlignSize
        self.tileAlignSize = tileAlignSize
        self.tileColumns = tileColumns
        self.tileRows = tileRows
    }

    /// The `cmpd` component types as roles, in order (a refused type is kept as an
    /// error, thrown only if `uncC` uses it).
    private static func componentTypes(_ cmpd: [UInt8]?) throws(UncompressedError) -> [Result<Role, UncompressedError>] {
        guard let cmpd else { throw .malformed("no 'cmpd' box (component definitions)") }
        let reader = ByteReader(cmpd)
        guard let count = reader.u32(0), Int(count) <= cmpd.count / 2 else { throw .malformed("'cmpd' box is cut short") }
        var types: [Result<Role, UncompressedError>] = []
        var offset = 4
        for _ in 0..<Int(count) {
            guard let type = reader.u16(offset) else { throw .malformed("'cmpd' box is cut short") }
            offset += 2
            if type >= 0x8000 {
                offset = reader.nullTerminatedString(from: offset, to: reader.count).next
            }
            types.append(role(type: Int(type)))
        }
        return types
    }

    /// ISO/IEC 23001-17 Table 1.
    private static func role(type: Int) -> Result<Role, UncompressedError> {
        switch type {
        case 0: .success(.gray)
        case 1: .success(.luma)
        case 2: .success(.cb)
        case 3: .success(.cr)
        case 4: .success(.red)
        case 5: .success(.green)
        case 6: .success(.blue)
        case 7: .success(.alpha)
        case 8, 9, 12, 0x8000...: .success(.ignored)
        case 10: .failure(.unsupported("palette components are not decoded"))
        case 11: .failure(.unsupported("filter-array (Bayer) components are not decoded"))
        case 13...16: .failure(.unsupported("CMYK components are not decoded"))
        default: .failure(.malformed("unknown component type \(type)"))
        }
    }

    /// A version 1 profile: component types (ISO/IEC 23001-17 Table 1) in stored order,
    /// and the fields it fixes.
    private struct Profile {
        let types: [Int]
        var bitDepth = 8
        let sampling: Sampling
        let interleave: Interleave
        var blockSize = 0
        var padLSB = false
        var blockLittleEndian = false
        var reversed = false
    }

    /// ISO/IEC 23001-17 Table 5 (`v210`, whose 10-bit samples straddle its groups, is not among them).
    private static let profiles: [String: Profile] = [
        "rgb3": Profile(types: [4, 5, 6], sampling: .none, interleave: .pixel),
        "rgba": Profile(types: [4, 5, 6, 7], sampling: .none, interleave: .pixel),
        "abgr": Profile(types: [7, 6, 5, 4], sampling: .none, interleave: .pixel),
        "2vuy": Profile(types: [2, 1, 3, 1], sampling: .s422, interleave: .multiY),
        "yuv2": Profile(types: [1, 2, 1, 3], sampling: .s422, interleave: .multiY),
        "yvyu": Profile(types: [1, 3, 1, 2], sampling: .s422, interleave: .multiY),
        "vyuy": Profile(types: [3, 1, 2, 1], sampling: .s422, interleave: .multiY),
        "yuv1": Profile(types: [1, 1, 2, 1, 1, 3], sampling: .s411, interleave: .multiY),
        "v308": Profile(types: [3, 1, 2], sampling: .none, interleave: .pixel),
        "v408": Profile(types: [2, 1, 3, 7], sampling: .none, interleave: .pixel),
        "y210": Profile(types: [1, 2, 1, 3], bitDepth: 10, sampling: .s422, interleave: .multiY, blockSize: 2, padLSB: true,
                        blockLittleEndian: true),
        "v410": Profile(types: [2, 1, 3], bitDepth: 10, sampling: .none, interleave: .pixel, blockSize: 4, padLSB: true,
                        blockLittleEndian: true, reversed: true),
        "i420": Profile(types: [1, 2, 3], sampling: .s420, interleave: .component),
        "nv12": Profile(types: [1, 2, 3], sampling: .s420, interleave: .mixed),
        "nv21": Profile(types: [1, 3, 2], sampling: .s420, interleave: .mixed),
        "yu22": Profile(types: [1, 2, 3], sampling: .s422, interleave: .component),
        "yv22": Profile(types: [1, 3, 2], sampling: .s422, interleave: .component),
        "yv20": Profile(types: [1, 3, 2], sampling: .s420, interleave: .component),
    ]
}
