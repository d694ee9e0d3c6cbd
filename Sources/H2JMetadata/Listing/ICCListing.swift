import H2JSupport

/// An ICC profile's header fields and every tag of its tag table as `MetadataTag`s (ICC.1:2010
/// §7): texts (`desc`, `mluc`, `text`), XYZ numbers, curves and parametric curves by value,
/// other types by type and size.
///
/// Invariant: never traps; reads only inside the profile; lists at most `maxTags` tags.
package enum ICCListing {
    static let maxTags = 200

    package static func tags(_ profile: [UInt8]) -> [MetadataTag] {
        let r = ByteReader(profile)
        var tags: [MetadataTag] = []
        func header(_ name: String, _ value: String?) {
            if let value, !value.isEmpty { tags.append(MetadataTag(family: "ICC", group: "header", name: name, value: value)) }
        }
        header("size", "\(profile.count) bytes")
        header("CMM", signature(r, 4))
        header("version", r.u8(8).flatMap { major in r.u8(9).map { "\(major).\($0 >> 4).\($0 & 0x0F)" } })
        header("class", signature(r, 12))
        header("colour space", signature(r, 16))
        header("connection space", signature(r, 20))
        header("created", date(r, 24))
        header("platform", signature(r, 40))
        header("manufacturer", signature(r, 48))
        header("model", signature(r, 52))
        header("rendering intent", r.u32(64).map { ["perceptual", "relative colorimetric", "saturation", "absolute colorimetric"][safe: Int($0)] ?? "\($0)" })
        header("creator", signature(r, 80))
        header("profile ID", r.contains(offset: 84, length: 16) && profile[84..<100].contains { $0 != 0 } ? Hex.string(Array(profile[84..<100])) : nil)
        guard let count = r.u32(128) else { return tags }
        for index in 0..<min(Int(count), maxTags, max(0, (profile.count - 132) / 12)) {
            let entry = 132 + 12 * index
            guard let name = signature(r, entry), let offset = r.u32(entry + 4), let size = r.u32(entry + 8) else { break }
            let start = Int(offset), end = start + Int(size)
            let value = start < end && end <= profile.count ? describe(Array(profile[start..<end])) : "(outside the profile)"
            tags.append(MetadataTag(family: "ICC", group: "tag", name: name + (names[name].map { " (\($0))" } ?? ""), value: value))
        }
        return tags
    }

    static let names = [
        "desc": "description", "cprt": "copyright", "wtpt": "white point", "bkpt": "black point", "rXYZ": "red colorant",
        "gXYZ": "green colorant", "bXYZ": "blue colorant", "rTRC": "red tone curve", "gTRC": "green tone curve",
        "bTRC": "blue tone curve", "kTRC": "gray tone curve", "chad": "chromatic adaptation", "dmnd": "device manufacturer",
        "dmdd": "device model", "lumi": "luminance", "meas": "measurement", "tech": "technology", "view": "viewing conditions",
        "vued": "viewing conditions description", "cicp": "coding-independent code points", "chrm": "chromaticity",
        "A2B0": "device to PCS, perceptual", "B2A0": "PCS to device, perceptual",
    ]

    /// A tag's value by its type signature.
    static func describe(_ data: [UInt8]) -> String {
        let r = ByteReader(data)
        guard let type = signature(r, 0) else { return "\(data.count) bytes" }
        switch type {
        case "desc":
            guard let length = r.u32(8), length > 0, r.contains(offset: 12, length: Int(length)) else { return type }
            return String(decoding: data[12..<(12 + Int(length))].prefix { $0 != 0 }, as: UTF8.self)
        case "text":
            return String(decoding: data.dropFirst(8).prefix { $0 != 0 }, as: UTF8.self)
        case "mluc":
            guard let records = r.u32(8), records > 0, let length = r.u32(20), let offset = r.u32(24),
                  r.contains(offset: Int(offset), length: Int(length)) else { return type }
            let units = stride(from: Int(offset), to: Int(offset) + Int(length) - 1, by: 2).compactMap { r.u16($0) }
            let language = String(decoding: data[12..<16], as: UTF8.self)
            return String(decoding: units, as: UTF16.self) + (records > 1 ? " (\(language), \(records) languages)" : "")
        case "XYZ ":
            return stride(from: 8, to: data.count - 3, by: 4).prefix(12).compactMap { r.u32($0).map { fixed(Int32(bitPattern: $0)) } }
                .joined(separator: " ")
        case "sf32":
            return stride(from: 8, to: data.count - 3, by: 4).prefix(12).compactMap { r.u32($0).map { fixed(Int32(bitPattern: $0)) } }
                .joined(separator: " ")
        case "curv":
            guard let points = r.u32(8) else { return type }
            if points == 0 { return "identity" }
            if points == 1, let gamma = r.u16(12) { return "gamma " + String(Double(gamma) / 256) }
            return "curve of \(points) points"
        case "para":
            guard let function = r.u16(8) else { return type }
            let parameters = stride(from: 12, to: data.count - 3, by: 4).prefix(7).compactMap { r.u32($0).map { fixed(Int32(bitPattern: $0)) } }
            return "parametric curve \(function): " + parameters.joined(separator: " ")
        case "cicp":
            guard data.count >= 12 else { return type }
            return "primaries \(data[8]), transfer \(data[9]), matrix \(data[10]), full range \(data[11])"
        default:
            return "\(type.trimmingSpaces), \(data.count) bytes"
        }
    }

    /// A four-character signature, printable ASCII only; nil for an all-zero one.
    static func signature(_ r: ByteReader, _ offset: Int) -> String? {
        guard r.contains(offset: offset, length: 4) else { return nil }
        let bytes = (0..<4).compactMap { r.u8(offset + $0) }
        guard bytes.contains(where: { $0 != 0 }) else { return nil }
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// An s15Fixed16Number, to four places.
    static func fixed(_ value: Int32) -> String {
        let scaled = (Double(value) / 65536 * 10000).rounded() / 10000
        return String(scaled)
    }

    /// A dateTimeNumber: year, month, day, hours, minutes, seconds.
    static func date(_ r: ByteReader, _ offset: Int) -> String? {
        let parts = (0..<6).compactMap { r.u16(offset + 2 * $0) }
        guard parts.count == 6, parts[0] > 0 else { return nil }
        func two(_ value: UInt16) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts[0])-\(two(parts[1]))-\(two(parts[2])) \(two(parts[3])):\(two(parts[4])):\(two(parts[5]))"
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
