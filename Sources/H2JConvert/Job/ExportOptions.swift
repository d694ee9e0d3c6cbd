import H2JJPEGCodec

/// `--max-size N|WxH`: the box an output fits within, aspect ratio kept, never enlarged.
/// `N` alone is an `N`×`N` box (the longer side at most `N`).
package struct OutputBox: Sendable, Equatable, CustomStringConvertible {
    package let width: Int
    package let height: Int

    package init?(width: Int, height: Int) {
        guard (1...ConversionOptions.maxDimension).contains(width), (1...ConversionOptions.maxDimension).contains(height) else { return nil }
        (self.width, self.height) = (width, height)
    }

    /// `2048` or `2048x1536` (`X` too); nil for anything else.
    package init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let width = Int(parts[0]), let height = Int(parts[parts.count - 1]) else { return nil }
        self.init(width: width, height: height)
    }

    package var description: String { width == height ? String(width) : "\(width)x\(height)" }
}

/// `--colorspace`: keep the source's colours and profile, or convert to sRGB.
package enum ColourSpaceChoice: String, Sendable, Equatable, CaseIterable {
    case keep, srgb
}

/// The export options (#22) the fingerprint states only when they differ from their
/// defaults, so a state written before them still matches a default run.
extension ConversionOptions {
    var exportFingerprint: String {
        var parts: [String] = []
        if let maxSize { parts.append("max-size=\(maxSize)") }
        if thumbnail { parts.append("thumbnail=true") }
        if colorspace != .keep { parts.append("colorspace=\(colorspace.rawValue)") }
        if progressive { parts.append("progressive=true") }
        if optimize { parts.append("optimize=true") }
        if sampling != .s420 { parts.append("sampling=\(sampling.rawValue)") }
        return parts.map { ";" + $0 }.joined()
    }
}
