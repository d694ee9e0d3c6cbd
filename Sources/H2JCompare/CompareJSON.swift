import H2JBatch
import H2JJob
import H2JSupport

/// `compare --json`: one JSON array, one object per file, in argument order:
/// `{"file", "width", "height", "options": {…}, "source": {…}, "outputs": [{"mode", "quality",
/// "maxSize", "width", "height", …}, …]}` or `{"file", "error"}`. `outputs` holds each
/// quality and size asked, in both modes; `options` the shaping options they share, where
/// they differ from convert's defaults. Y-PSNR is a number of dB, or null when the luma is identical
/// (infinite PSNR).
enum CompareJSON {
    /// The whole document: `[`, the entries one per line, `]`.
    static func document(_ entries: [String]) -> String {
        entries.isEmpty ? "[]\n" : "[\n" + entries.joined(separator: ",\n") + "\n]\n"
    }

    static func entry(_ comparison: FileComparison, options: ConversionOptions, decoder: TileDecoderChoice) -> String {
        var line = JSONLine()
        line.add("file", comparison.path)
        line.add("width", comparison.source.width)
        line.add("height", comparison.source.height)
        var source = JSONLine()
        source.add("bytes", comparison.source.bytes)
        add(comparison.source.metadata, to: &source)
        source.add("nclxOnly", comparison.source.nclxOnly)
        var shared = JSONLine()
        for (name, value) in CompareOptionColumns.shared(options) { shared.add(name, value) }
        line.add("options", object: shared)
        line.add("source", object: source)
        line.add("outputs", objects: comparison.outputs.map { Self.output($0, decoder: decoder) })
        return line.text
    }

    static func failure(_ file: String, _ error: String) -> String {
        var line = JSONLine()
        line.add("file", file)
        line.add("error", error)
        return line.text
    }

    private static func output(_ output: FileComparison.Output, decoder: TileDecoderChoice) -> JSONLine {
        var line = JSONLine()
        line.add("mode", output.mode.rawValue)
        line.add("quality", output.variant.quality)
        line.add("maxSize", output.variant.maxSize?.description)
        line.add("width", output.width)
        line.add("height", output.height)
        line.add("bytes", output.bytes)
        line.add("ms", output.milliseconds)
        line.add("engine", output.result.engine?.rawValue)
        line.add("decoder", output.result.engine?.tileDecoder(decoder)?.rawValue)
        line.add("engineReason", output.result.engineReason)
        add(output.metadata, to: &line)
        line.add("exifTagsKept", output.exifTags.kept)
        line.add("exifTagsDropped", output.exifTags.dropped)
        line.add("exifTagsAdded", output.exifTags.added)
        line.add("yPSNR", output.yPSNR)
        line.add("warnings", output.result.warnings.map(\.message))
        return line
    }

    /// The fields source and outputs share.
    private static func add(_ summary: MetadataSummary, to line: inout JSONLine) {
        line.add("exif", summary.exif)
        line.add("exifTags", summary.exifTags.count)
        line.add("exifProblem", summary.exifProblem)
        line.add("gps", summary.gpsTags != nil)
        line.add("gpsTags", summary.gpsTags)
        line.add("makerNote", summary.makerNoteBytes != nil)
        line.add("makerNoteBytes", summary.makerNoteBytes)
        line.add("xmp", summary.xmpBytes != nil)
        line.add("xmpBytes", summary.xmpBytes)
        line.add("icc", summary.iccBytes != nil)
        line.add("iccBytes", summary.iccBytes)
    }
}
