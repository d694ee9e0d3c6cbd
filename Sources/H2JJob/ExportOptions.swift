/// `--max-size N|WxH`: the box an output fits within, aspect ratio kept, never enlarged.
/// `N` alone is an `N`×`N` box (the longer side at most `N`).
package struct OutputBox: Sendable, Equatable, CustomStringConvertible {
    package let width: Int
    package let height: Int
    /// The largest side a box may have: a JPEG's (and libheif's) largest.
    package static let maxSide = 65_535

    package init?(width: Int, height: Int) {
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height) else { return nil }
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
