import Foundation
import H2JReferenceDecoders
import H2JTestSupport
@testable import H2JContainer
@testable import H2JJPEG

/// The acceptance checks for one converted file, shared by the Samples and corpus
/// tests. Each returns the problems it found, so a failure names every one of them.
enum OutputCheck {
    static let minimumPSNR = 34.0

    /// Tags compared between source and output in keep mode, with their EXIF groups.
    static let preservedTags = [("IFD0", "Make"), ("IFD0", "Model"), ("ExifIFD", "DateTimeOriginal"),
                                ("GPS", "GPSLatitude"), ("GPS", "GPSLatitudeRef"), ("GPS", "GPSLongitude"), ("GPS", "GPSLongitudeRef")]

    /// Every problem of `output`, converted from `source`. With `samePixelsAs`, another
    /// output of the same source (the keep-mode run's, for a strip-mode output), the
    /// pixels are checked by requiring the very same image data (tables, frame header and
    /// scans, byte for byte) rather than by a second reference decode: the two modes
    /// differ only in their metadata segments.
    static func problems(source: String, output: String, strip: Bool = false, samePixelsAs other: String? = nil,
                         background: (UInt8, UInt8, UInt8) = (255, 255, 255), comparePixels: Bool = true) throws -> [String] {
        var problems: [String] = []
        if !comparePixels {
            // Tone-mapped HDR: its pixels are not a reference decoder's (ToneMappingEndToEndTests checks them).
        } else if let other {
            guard let data = JPEGSegments.imageData(path: output) else { return ["output image data unreadable"] }
            if data != JPEGSegments.imageData(path: other) { problems.append("image data differs from \(other)'s") }
        } else {
            problems += pixelProblems(source: source, output: output, background: background)
        }
        let out = try ExifTool.tags(atPath: output)
        let orientation = out["IFD0:Orientation"].map { "\($0)" }
        if let orientation, orientation != "1" { problems.append("EXIF Orientation \(orientation) after pixels were rotated") }
        guard let segments = JPEGSegments(path: output) else { return problems + ["output header unreadable"] }
        // The source's ICC profile byte for byte; with none, a profile built from its nclx
        // only where that says something sRGB does not (checked by name: a generated
        // profile's description names the colour space, and it must not be sRGB's).
        let sourceICC = Reference.heifICC(source)
        if let sourceICC, segments.icc != sourceICC {
            problems.append("ICC differs: source \(sourceICC.count) bytes, output \(segments.icc?.count ?? 0)")
        } else if sourceICC == nil, segments.icc != nil {
            let description = "\(out["ICC_Profile:ProfileDescription"] ?? "")"
            let primaries = "\(try ExifTool.tags(atPath: source)["QuickTime:ColorPrimaries"] ?? "")"
            if !description.contains("from nclx") || primaries.isEmpty || primaries == "1" {
                problems.append("output has an ICC profile ('\(description)') the source (nclx primaries '\(primaries)') did not call for")
            }
        }
        if strip {
            if segments.exifSegments > 0 { problems.append("strip mode wrote EXIF") }
            // The provenance mark is the only XMP strip mode may write.
            let foreign = out.keys.filter { $0.hasPrefix("XMP-") && !$0.hasPrefix("XMP-h2j:") && !$0.hasPrefix("XMP-x:") }
            if !foreign.isEmpty { problems.append("strip mode wrote XMP other than the mark: \(foreign.sorted())") }
            if out.keys.contains(where: { $0.hasPrefix("GPS:") }) { problems.append("strip mode kept GPS") }
            return problems
        }
        if segments.exifSegments > 1 { problems.append("EXIF split over \(segments.exifSegments) APP1 segments") }
        let src = try ExifTool.tags(atPath: source)
        for (group, name) in preservedTags {
            let key = "\(group):\(name)"
            if let value = src[key], "\(value)" != out[key].map({ "\($0)" }) {
                problems.append("\(key) \(value) -> \(out[key].map { "\($0)" } ?? "missing")")
            }
        }
        if Reference.heifHasXMP(source) && !segments.hasXMP { problems.append("XMP lost") }
        return problems
    }

    /// The output decodes cleanly, at libheif's size, close to libheif's pixels.
    static func pixelProblems(source: String, output: String, background: (UInt8, UInt8, UInt8)) -> [String] {
        var problems: [String] = []
        guard let decoded = Reference.jpeg(output) else { return ["output does not decode"] }
        if decoded.warnings > 0 { problems.append("output decodes with \(decoded.warnings) libjpeg warnings") }
        if let size = Reference.heifSize(source), size != (decoded.picture.width, decoded.picture.height) {
            problems.append("size \(decoded.picture.width)×\(decoded.picture.height) != libheif's \(size.0)×\(size.1)")
        }
        if let reference = Reference.heif(source, background: background),
           reference.width == decoded.picture.width, reference.height == decoded.picture.height {
            let psnr = decoded.picture.psnr(against: reference)
            // Below 34 dB, accept only what JPEG itself costs at q90 4:2:0 on this content
            // (example.avif's fine detail tops out at 33.0 dB however it is encoded).
            if psnr < minimumPSNR {
                let ceiling = Reference.jpegCeiling(reference, components: decoded.components)
                if psnr < ceiling - 0.1 {
                    problems.append(String(format: "PSNR %.2f dB < %.0f, and below libjpeg's own %.2f dB on the reference", psnr, minimumPSNR, ceiling))
                }
            }
        } else {
            problems.append("no reference decode to compare with")
        }
        return problems
    }
}
