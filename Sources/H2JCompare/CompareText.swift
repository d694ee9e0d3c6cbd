import H2JBatch
import H2JJob
import H2JMetadata

/// `compare`'s text output: per file a header line, then a table whose rows are
/// properties and whose columns are the source and each output (every quality and size
/// asked, in both modes); the options rows head the table; warnings and unreadable EXIF
/// follow it, one line each.
enum CompareText {
    static func block(_ comparison: FileComparison, options: ConversionOptions, decoder: TileDecoderChoice) -> String {
        let source = comparison.source
        var lines = ["\(comparison.path) (\(source.width)×\(source.height))"] + table(rows(comparison, options: options, decoder: decoder))
        if let problem = source.metadata.exifProblem { lines.append("  source: EXIF unreadable: \(problem)") }
        for output in comparison.outputs {
            let name = FileComparison.label(output.variant, output.mode, among: comparison.variants)
            if let problem = output.metadata.exifProblem { lines.append("  \(name): EXIF unreadable: \(problem)") }
            lines += output.result.warnings.map { "  \(name): warning: \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The table's cells: a header row (the property column blank, then `source` and each
    /// output's mode), then a row per property. `compare --html` shows the same table.
    static func rows(_ comparison: FileComparison, options: ConversionOptions, decoder: TileDecoderChoice) -> [[String]] {
        let source = comparison.source
        var rows: [[String]] = [["", "source"] + comparison.outputs.map { $0.mode.rawValue }]
        func row(_ name: String, _ sourceCell: String, _ cell: (FileComparison.Output) -> String) {
            rows.append([name, sourceCell] + comparison.outputs.map(cell))
        }
        row("quality", "") { String($0.variant.quality) }
        if comparison.outputs.contains(where: { $0.variant.maxSize != nil }) {
            row("max size", "") { $0.variant.maxSize?.description ?? "-" }
        }
        for (name, value) in CompareOptionColumns.shared(options) { row(name, "") { _ in value } }
        row("size", "\(source.width)×\(source.height)") { "\($0.width)×\($0.height)" }
        row("bytes", EXIFText.bytes(source.bytes)) { EXIFText.bytes($0.bytes) }
        row("ms", "") { RunSummary.format($0.milliseconds, digits: 1) }
        row("engine", "") { $0.result.engine?.label(decoder: decoder) ?? "" }
        row("EXIF tags", exifCount(source.metadata)) { exifCount($0.metadata) }
        row("  kept", "") { String($0.exifTags.kept) }
        row("  dropped", "") { String($0.exifTags.dropped) }
        if comparison.outputs.contains(where: { $0.exifTags.added > 0 }) {
            row("  added", "") { String($0.exifTags.added) }
        }
        row("GPS", gps(source.metadata)) { gps($0.metadata) }
        row("maker note", size(source.metadata.makerNoteBytes)) { size($0.metadata.makerNoteBytes) }
        row("XMP", size(source.metadata.xmpBytes)) { size($0.metadata.xmpBytes) }
        row("ICC", source.nclxOnly ? "no (nclx)" : size(source.metadata.iccBytes)) { size($0.metadata.iccBytes) }
        row("Y-PSNR", "") { decibels($0.yPSNR) }
        row("warnings", "") { String($0.result.warnings.count) }
        return rows
    }

    /// Rows of equal length as lines: every column but the last padded to its widest
    /// cell (counted in characters), columns two spaces apart, lines indented by two.
    static func table(_ rows: [[String]]) -> [String] {
        let widths = (rows.first ?? []).indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { cells in
            "  " + cells.enumerated().map { c, cell in
                c == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[c] - cell.count)
            }.joined(separator: "  ")
        }
    }

    /// Y-PSNR in dB with two decimals; "inf" for identical luma.
    static func decibels(_ value: Double) -> String {
        value.isFinite ? RunSummary.format(value, digits: 2) + " dB" : "inf"
    }

    private static func exifCount(_ summary: MetadataSummary) -> String {
        guard summary.exif else { return "none" }
        return summary.exifProblem == nil ? String(summary.exifTags.count) : "unreadable"
    }

    private static func gps(_ summary: MetadataSummary) -> String {
        summary.gpsTags.map { "\($0) tags" } ?? "no"
    }

    private static func size(_ bytes: Int?) -> String {
        bytes.map { EXIFText.bytes($0) + " bytes" } ?? "no"
    }
}
