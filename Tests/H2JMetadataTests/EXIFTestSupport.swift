@testable import H2JMetadata
@testable import H2JSupport

/// Helpers shared by the EXIF test suites.
enum EXIFTestSupport {

    /// A HEIF Exif item: 4-byte big-endian offset, then `prefix`, then the TIFF bytes.
    static func heifItem(tiff: [UInt8], offset: UInt32 = 0, prefix: [UInt8] = []) -> [UInt8] {
        [UInt8(offset >> 24), UInt8((offset >> 16) & 0xFF), UInt8((offset >> 8) & 0xFF), UInt8(offset & 0xFF)]
            + prefix + tiff
    }

    /// Reads back the TIFF of an APP1 payload.
    static func directory(_ result: JPEGExif) -> EXIFDirectory? {
        guard let payload = result.app1Payload else { return nil }
        return try? EXIFDirectory(app1Payload: payload)
    }

    /// What a reader sees, wherever things sit: per IFD in reading order, each entry's
    /// tag, type, count and value (its bytes' length and FNV-1a hash); pointers as the IFD
    /// kind they lead to, data offsets as the blocks' bytes. Equal for a blob and its repacking.
    static func contents(_ dir: EXIFDirectory) -> [String] {
        func digest<C: Collection>(_ bytes: C?) -> String where C.Element == UInt8 {
            guard let bytes else { return "unreadable" }
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
            return "\(bytes.count) bytes #\(String(hash, radix: 16))"
        }
        var lines: [String] = []
        for ifd in dir.ifds {
            for e in ifd.entries {
                let value: String
                if let target = EXIFTag.pointerTarget(e.tag) {
                    value = "-> \(target)"
                } else if let lengthsTag = EXIFTag.lengthsTag(forOffsets: e.tag) {
                    let offsets = dir.unsignedIntegers(e) ?? []
                    let lengths = ifd.entry(lengthsTag).flatMap(dir.unsignedIntegers) ?? []
                    value = "-> " + zip(offsets, lengths).map { digest(ByteReader(dir.tiff).slice(Int($0), Int($1))) }.joined(separator: ", ")
                } else {
                    value = digest(dir.rawValue(e))
                }
                lines.append("\(ifd.kind) 0x\(EXIFText.hex(e.tag)) type \(e.type) count \(e.count) \(value)")
            }
        }
        return lines
    }

    /// A JPEG with just SOI, one APP1 holding `payload` and EOI, for exiftool.
    static func jpeg(app1Payload payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xD9]
    }

    /// Deterministic 64-bit LCG (Knuth MMIX constants).
    struct LCG {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }
}
