import H2JColour
import H2JContainer
import H2JMetadata
import H2JOutputPlan
import H2JSupport

/// `inspect` without `--json`: a readable dump per file, grouped like ImageIO's
/// property dictionaries, values aligned in one column.
///
/// ```
/// IMG_0001.heic
///   format              heif, 1,402,114 bytes
///   brands              heic; compatible mif1, MiHE, miaf, MiHB, heic
///   images
///     #49               grid 4032×3024, primary, 48 tiles (8×6)
///   …
/// ```
enum InspectText {
    /// Column where values start.
    static let valueColumn = 22

    static func render(_ outcome: InspectOutcome) -> String {
        guard let properties = outcome.properties else { return "" }
        var lines = [printable(outcome.file)]
        func row(_ level: Int, _ key: String, _ value: String = "") {
            let indent = String(repeating: "  ", count: level)
            let padding = max(1, valueColumn - indent.count - key.count)
            lines.append(value.isEmpty ? indent + key : indent + key + String(repeating: " ", count: padding) + printable(value))
        }
        row(1, "format", "\(properties.format), \(EXIFText.bytes(properties.byteSize)) bytes")
        if let brands = properties.brands {
            row(1, "brands", brands.major + (brands.compatible.isEmpty ? "" : "; compatible " + brands.compatible.joined(separator: ", ")))
        }
        if properties.layout == "mini" { row(1, "layout", "mini: a low-overhead 'mini' box, read as the 'meta' box it stands for") }
        row(1, "images")
        for image in properties.images {
            row(2, image.id.map { "#\($0)" } ?? "image", describe(image))
        }
        if !properties.groups.isEmpty {
            row(1, "groups")
            for group in properties.groups {
                let meaning = groupMeaning(group.type).map { " (\($0))" } ?? ""
                row(2, "\(group.type) #\(group.id)", group.entities.map { "#\($0)" }.joined(separator: ", ") + meaning)
            }
        }
        if let toneMap = properties.toneMap { row(1, "gain map", describe(toneMap)) }
        if let apple = properties.appleGainMap {
            let headroom = apple.headroom.map { "headroom \(decimal($0, places: 2))× (\(apple.origin?.rawValue ?? ""))" } ?? "no headroom recorded"
            row(1, "Apple gain map", "#\(apple.id): \(headroom)")
        }
        if let gainMap = properties.gainMap { row(1, "gain map", describe(gainMap)) }
        if !properties.tracks.isEmpty {
            row(1, "tracks (not converted)")
            for track in properties.tracks { row(2, "track \(track.id)", describe(track)) }
        }
        if let outputs = properties.outputs {
            row(1, "outputs", flags(outputs.choices))
            let stem = Path.stem(Path.lastComponent(outcome.file)) + ".jpg"
            if let failure = outputs.failure { row(2, "none", "the conversion fails: " + failure) }
            for file in outputs.files { row(2, file.kind, file.name.path(besides: stem) + ": " + describe(file)) }
            for skipped in outputs.notWritten {
                row(2, "not written", skipped.name.path(besides: stem) + ": " + skipped.reason)
            }
            if let hdr = outputs.hdr { row(2, "HDR", hdr) }
            if let reason = outputs.gainMapNotUsed { row(2, "gain map not used", reason) }
            if !outputs.notConverted.isEmpty { row(2, "not converted", outputs.notConverted.joined(separator: "; ")) }
            if !outputs.leftOut.isEmpty { row(2, "left out as asked", outputs.leftOut.joined(separator: "; ")) }
        }
        if let primary = properties.primary {
            row(1, "primary", primary.id.map { "#\($0)" } ?? "")
            row(2, "bit depth", primary.bitDepth.map(String.init) ?? "unknown")
            row(2, "chroma", primary.chroma ?? "unknown")
            if let icc = primary.icc {
                let name = icc.description.map { "\"\($0)\"" } ?? "(no description)"
                row(2, "ICC", "\(name), v\(icc.version ?? "?"), \(EXIFText.bytes(icc.bytes)) bytes")
            }
            if let nclx = primary.nclx { row(2, "nclx", describe(nclx)) }
            if primary.icc == nil && primary.nclx == nil { row(2, "colour", "untagged (sRGB assumed)") }
            if !primary.transforms.isEmpty { row(2, "transforms", primary.transforms.joined(separator: "; ")) }
            row(2, "EXIF orientation", primary.exifOrientation.map(String.init) ?? "none")
        }
        for group in properties.exifGroups {
            row(1, group.name)
            for field in group.fields { row(2, field.key, describe(field.value)) }
        }
        let metadata = properties.metadata
        var sizes = [("EXIF", metadata.exif), ("XMP", metadata.xmp)]
        if metadata.extendedXMP != nil { sizes.append(("Extended XMP", metadata.extendedXMP)) }
        sizes.append(("ICC", metadata.icc))
        row(1, "metadata", sizes.map { "\($0.0) " + ($0.1.map { EXIFText.bytes($0) + " bytes" } ?? "none") }.joined(separator: "; "))
        if let mark = properties.provenance {
            row(1, "provenance", "heic2jpg \(mark.version), \(mark.mode.rawValue), quality \(mark.quality)")
            row(2, "source", mark.sourceName ?? "not named (strip mode)")
            row(2, "source SHA-256", mark.sourceSHA256)
        } else {
            row(1, "provenance", "none")
        }
        if let matches = outcome.sourceMatches {
            row(1, "--source", matches ? "matches" : properties.provenance == nil ? "no mark to compare" : "does NOT match")
        }
        for warning in properties.warnings { row(1, "warning", warning) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with control characters (C0, DEL, C1) shown as `\u{1B}`: values come from
    /// untrusted files, and a terminal must not take them as commands or line breaks.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `grid 4032×3024, primary, 48 tiles (8×6)`, `hvc1 512×384 shown 384×512, …`.
    static func describe(_ image: ImageProperties.Image) -> String {
        var parts = [image.type + (image.size.map { " " + dimensions($0) } ?? "")]
        if let shown = image.displaySize, shown != image.size { parts[0] += " shown " + dimensions(shown) }
        if image.isPrimary { parts.append("primary") }
        if let master = image.thumbnailOf { parts.append("thumbnail of #\(master)") }
        if !image.inputs.isEmpty { parts.append("from " + image.inputs.map { "#\($0)" }.joined(separator: ", ")) }
        if let derived = image.inputOf { parts.append("input of #\(derived)") }
        if let auxiliary = image.auxiliary {
            let kind = auxiliary.kind == auxiliary.urn ? auxiliary.urn : "\(auxiliary.kind) (\(auxiliary.urn))"
            parts.append("auxiliary " + kind + (auxiliary.of.map { " of #\($0)" } ?? ""))
        }
        if let tiles = image.tiles {
            parts.append("\(tiles) \(tiles == 1 ? "tile" : "tiles")" + (image.grid.map { " (\($0.columns)×\($0.rows))" } ?? ""))
        }
        if let multiPicture = image.multiPicture {
            parts.append("MPF \(multiPicture.type), \(EXIFText.bytes(multiPicture.bytes)) bytes at \(multiPicture.start)")
        }
        if let components = image.components { parts.append("\(components) components") }
        if let coding = image.coding { parts.append(coding) }
        if image.hidden { parts.append("hidden") }
        return parts.joined(separator: ", ")
    }

    /// What an output holds: `#1`, `#1, Ultra HDR with gain map #2`, `MPO of #1 (left)
    /// and #2 (right)`, `#4 of #1` (an auxiliary image).
    static func describe(_ file: ImageProperties.OutputFile) -> String {
        guard file.layout != "mpo" else { return "MPO of #\(file.items[0]) (left) and #\(file.items[1]) (right)" }
        return file.items.map { "#\($0)" }.joined(separator: ", ") + (file.of.map { " of #\($0)" } ?? "")
            + (file.gainMap.map { ", Ultra HDR with gain map #\($0)" } ?? "")
            + (file.computedGainMap ? ", Ultra HDR with a gain map computed from its HDR rendition" : "")
    }

    /// `--images all --stereo mpo --aux none --hdr ultrahdr --metadata keep`.
    static func flags(_ choices: OutputChoices) -> String {
        let kinds = AuxiliaryOutput.allCases.filter(choices.auxiliaries.contains).map(\.rawValue)
        return "--images \(choices.images.rawValue) --stereo \(choices.stereo.rawValue) --aux "
            + (kinds.isEmpty ? "none" : kinds.joined(separator: ",")) + " --hdr \(choices.hdr.rawValue) --metadata \(choices.metadata.rawValue)"
    }

    /// What an entity group of a known type means (ISO/IEC 23008-12 §6.8), nil for others.
    static func groupMeaning(_ type: String) -> String? {
        switch type {
        case "ster": "stereo pair, left first"
        case "altr": "alternatives, preferred first"
        case "brst": "burst"
        case "albc": "album"
        case "favc": "favourites"
        case "pano": "panorama"
        case "slid": "slideshow"
        case "eqiv": "equivalent images"
        default: nil
        }
    }

    static func dimensions(_ size: ImageSize) -> String { "\(size.width)×\(size.height)" }

    /// `tmap #66 (base #49, gain map #63): ISO 21496-1 version 0 (writer 0), headroom 0 → 1.6 stops, 1 channel`,
    /// or `tmap #3: ignored: the file lacks the 'tmap' brand`.
    static func describe(_ toneMap: ToneMappedImage) -> String {
        let inputs = [toneMap.base.map { "base #\($0)" }, toneMap.gainMap.map { "gain map #\($0)" }].compactMap { $0 }
        let head = "tmap #\(toneMap.id)" + (inputs.isEmpty ? "" : " (" + inputs.joined(separator: ", ") + ")")
        switch toneMap.metadata {
        case .failure(let refusal): return head + ": ignored: \(refusal)"
        case .success(let metadata):
            let stops = { (fraction: GainMapMetadata.Fraction) in fraction.value.map { decimal($0, places: 2) } ?? "?" }
            let channels = metadata.channels.count == 1 ? "1 channel" : "\(metadata.channels.count) channels"
            return head + ": ISO 21496-1 version \(metadata.minimumVersion) (writer \(metadata.writerVersion)), headroom "
                + "\(stops(metadata.baseHDRHeadroom)) → \(stops(metadata.alternateHDRHeadroom)) stops, \(channels)"
                + (metadata.baseIsHDR ? ", the base is the HDR rendition" : "")
        }
    }

    /// `image 2, 192×128, Ultra HDR (hdrgm XMP, ISO 21496-1 APP2): headroom 0 → 1.74 stops, 1 channel`.
    static func describe(_ gainMap: JPEGGainMap) -> String {
        let forms = [gainMap.hdrgm ? "hdrgm XMP" : nil, gainMap.iso21496 ? "ISO 21496-1 APP2" : nil].compactMap { $0 }
        var text = "image \(gainMap.image)" + (gainMap.size.map { ", " + dimensions($0) } ?? "")
            + ", Ultra HDR (" + forms.joined(separator: ", ") + ")"
        if let (base, alternate) = gainMap.headrooms {
            text += ": headroom \(decimal(base, places: 2)) → \(decimal(alternate, places: 2)) stops"
        }
        if case .success(let iso)? = gainMap.metadata {
            text += ", " + (iso.channels.count == 1 ? "1 channel" : "\(iso.channels.count) channels")
        }
        if case .failure(let refusal)? = gainMap.metadata { text += "; ISO 21496-1 metadata ignored: \(refusal)" }
        if !gainMap.announced { text += "; the primary does not announce it" }
        return text
    }

    /// `pict 1280×720, 60 frames`, `soun, 1 frame`.
    static func describe(_ track: SequenceTrack) -> String {
        var text = track.handler
        if track.width > 0 && track.height > 0 { text += " \(track.width)×\(track.height)" }
        let frames = track.samples.map { "\($0) frame\($0 == 1 ? "" : "s")" } ?? "frames unknown"
        return text + ", " + frames
    }

    /// `12/13/6 full range (Display P3, sRGB transfer, BT.601 matrix)`.
    static func describe(_ nclx: NCLX) -> String {
        let primaries = nclx.primaries == 2 ? "unspecified primaries" : ICCFromNCLX.primariesName(nclx.primaries)
        let names = [primaries, transferName(nclx.transfer), matrixName(nclx.matrix)]
        return "\(nclx.primaries)/\(nclx.transfer)/\(nclx.matrix) \(nclx.fullRange ? "full" : "limited") range (\(names.joined(separator: ", ")))"
    }

    /// ITU-T H.273 Table 3.
    static func transferName(_ code: Int) -> String {
        switch code {
        case 1: "BT.709 transfer"
        case 2: "unspecified transfer"
        case 4: "gamma 2.2"
        case 5: "gamma 2.8"
        case 6: "BT.601 transfer"
        case 8: "linear"
        case 13: "sRGB transfer"
        case 14, 15: "BT.2020 transfer"
        case 16: "PQ"
        case 18: "HLG"
        default: "transfer \(code)"
        }
    }

    /// ITU-T H.273 Table 4.
    static func matrixName(_ code: Int) -> String {
        switch code {
        case 0: "RGB (identity matrix)"
        case 1: "BT.709 matrix"
        case 2: "unspecified matrix"
        case 5, 6: "BT.601 matrix"
        case 9: "BT.2020 matrix"
        case 12: "chromaticity-derived matrix"
        default: "matrix \(code)"
        }
    }

    /// Rationals as short decimals (`1.8`, `72`), or as a fraction where that reads
    /// better (`1/120`); GPS degrees to 6 places (about 0.1 m).
    static func describe(_ value: ImageProperties.EXIFValue) -> String {
        switch value {
        case .text(let text): return text
        case .integer(let integer): return String(integer)
        case .number(let number): return decimal(number, places: 6)
        case .rational(let rational):
            guard let value = rational.doubleValue else { return rational.description }
            let short = decimal(value, places: 3)
            return value != 0 && abs(value) < 1 && rational.numerator == 1 ? rational.description : short
        }
    }

    /// `value` rounded to `places` decimals, trailing zeros dropped; never traps (values
    /// too large for the rounding are printed as Swift prints them).
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        guard value.isFinite, let scaled = Int(exactly: (abs(value) * scale).rounded()) else { return String(value) }
        let digits = String(scaled)
        let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
        let whole = padded.dropLast(places)
        let fraction = padded.suffix(places).reversed().drop { $0 == "0" }.reversed()
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return sign + whole + (fraction.isEmpty ? "" : "." + String(fraction))
    }
}
