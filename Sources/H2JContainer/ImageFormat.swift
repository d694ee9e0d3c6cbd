import H2JSupport

/// What a file holds, decided from its first bytes only: never from its name.
///
/// HEIF-family files start with an ISO-BMFF `ftyp` box (ISO/IEC 14496-12 §4.3) whose
/// major or compatible brands name a HEIF profile (ISO/IEC 23008-12 Annex B/D, MIAF,
/// AVIF). Other formats are recognised by their magic numbers so a failure can say
/// what a misnamed file really is.
package enum ImageFormat: Equatable, Sendable, CustomStringConvertible {
    /// HEIF or AVIF content; `brand` is the brand that made us decide (major brand if it qualifies).
    case heif(brand: String)
    case jpeg
    case png
    case gif
    case tiff
    case webp
    case bmp
    /// An ISO-BMFF file whose brands are not HEIF (e.g. an MP4 video).
    case isoMedia(brand: String)
    case empty
    case unknown

    /// Brands that mark HEIF image content (HEVC, AVC, AV1 and generic image brands).
    /// Sources: ISO/IEC 23008-12 (heic, heix, heim, heis, hevc, hevx, hevm, hevs, mif1,
    /// msf1, mif2), MIAF ISO/IEC 23000-22 (miaf), AVIF 1.0 (avif, avis), Apple (MiHE, MiHB, MiHA are
    /// MIAF profile brands seen in iPhone files).
    package static let heifBrands: Set<String> = [
        "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs",
        "mif1", "msf1", "mif2", "miaf", "avif", "avis", "avci", "avcs",
        "MiHE", "MiHB", "MiHA",
    ]

    /// How many leading bytes `sniff` wants; a shorter prefix is fine for short files.
    package static let sniffLength = 256

    /// Classifies `prefix`, the first bytes of a file (up to `sniffLength`).
    package static func sniff(_ prefix: [UInt8]) -> ImageFormat {
        if prefix.isEmpty { return .empty }
        let reader = ByteReader(prefix)
        if let brands = brands(prefix) {
            if let hit = brands.first(where: { heifBrands.contains($0) }) {
                return .heif(brand: hit)
            }
            // A low-overhead file (`MinimizedImage`): its codec brand is the `ftyp`
            // minor version, so `mif3` and the `mini` box after `ftyp` are what say HEIF.
            if brands.contains("mif3"), let size = reader.u32(0), reader.fourCC(Int(size) + 4) == "mini" {
                return .heif(brand: "mif3")
            }
            return .isoMedia(brand: brands.first ?? "????")
        }
        if prefix.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if prefix.starts(with: Array("GIF8".utf8)) { return .gif }
        if prefix.starts(with: [0x49, 0x49, 0x2A, 0x00]) || prefix.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if prefix.starts(with: Array("RIFF".utf8)), reader.fourCC(8) == "WEBP" { return .webp }
        if prefix.starts(with: Array("BM".utf8)), prefix.count >= 14 { return .bmp }
        return .unknown
    }

    /// The major and compatible brands of the `ftyp` box that starts `prefix` (as far as
    /// `prefix` holds it); nil when the file does not start with one.
    package static func brands(_ prefix: [UInt8]) -> [String]? {
        let reader = ByteReader(prefix)
        guard reader.fourCC(4) == "ftyp", let size = reader.u32(0) else { return nil }
        // Brands are the major brand at 8, then compatible brands from 16 to the box end.
        let end = min(Int(size), prefix.count)
        var brands: [String] = []
        if let major = reader.fourCC(8) { brands.append(major) }
        var offset = 16
        while offset + 4 <= end, let brand = reader.fourCC(offset) {
            brands.append(brand)
            offset += 4
        }
        return brands
    }

    package var isHEIF: Bool {
        if case .heif = self { return true }
        return false
    }

    /// A short name for messages such as "not a HEIF image: looks like PNG".
    package var description: String {
        switch self {
        case .heif(let brand): return "HEIF (\(brand))"
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .gif: return "GIF"
        case .tiff: return "TIFF"
        case .webp: return "WebP"
        case .bmp: return "BMP"
        case .isoMedia(let brand): return "ISO media with brand '\(brand)', not an image"
        case .empty: return "an empty file"
        case .unknown: return "unknown data"
        }
    }
}

/// File-name extensions that announce HEIF content. They only decide whether a file that
/// turns out *not* to be HEIF is reported (misnamed) or silently ignored.
package enum HEIFExtensions {
    package static let all: Set<String> = ["heic", "heif", "hif", "avif", "heics", "heifs", "avci"]

    /// True when `name`'s extension (case-insensitive) is one of `all`.
    package static func matches(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return all.contains(name[name.index(after: dot)...].lowercased())
    }
}
