import H2JBatch
import H2JJob
import H2JMetadata
import H2JSupport

/// `compare --html FILE`: the comparison as one self-contained page, written a source at
/// a time (`head`, a `section` or `failure` per file, `tail`). For each source: the text
/// table's rows (`CompareText.rows`) and the pictures' differences; the source beside
/// each output, reduced; a crop of each at 1:1 whose zoom and pan stay in step
/// (`ComparePageScript`); a heat map of |ΔY| per output; and every EXIF, XMP and ICC tag
/// in each, with what each output dropped, changed or added, and the location,
/// identifying and capture-time tags called out. Pictures are inline JPEGs the worker
/// made (`ComparisonPictures`); nothing is fetched.
enum ComparePage {
    /// Above this many files, each tag table starts folded, to keep a large page quick.
    static let foldedTablesAbove = 20

    /// One line of the summary at the end.
    struct SummaryLine {
        let anchor: String
        let file: String
        /// The cells after the file's: its size, then per output bytes and Y-PSNR, then the
        /// location tags the last output dropped; or the error.
        let cells: [String]
        let failed: Bool
    }

    static func head(files: Int, options: ConversionOptions) -> String {
        var page = HTMLText()
        page.raw(HTMLText.head(title: "heic2jpg compare", policy: ComparePageScript.contentSecurityPolicy, style: ComparePageScript.style))
        page.element("h1", "heic2jpg compare: \(files) file" + (files == 1 ? "" : "s"))
        page.element("p", "Each source converted in both modes: \(MetadataMode.keep.rawValue) keeps EXIF, XMP and ICC; "
                     + "\(MetadataMode.strip.rawValue) keeps the pixels only. "
                     + CompareOptionColumns.shared(options).map { "\($0.name) \($0.value)" }.joined(separator: ", "))
        page.raw("<p><a href=\"#summary\">Summary of every file</a>. Crops: drag to pan, the wheel or the slider to zoom; "
                 + "all crops of a source move together. Heat maps: mean |ΔY| per pixel of the map, in 8-bit luma levels.</p>\n")
        return page.markup
    }

    static func section(_ comparison: FileComparison, index: Int, files: Int, options: ConversionOptions,
                        decoder: TileDecoderChoice) -> (html: String, summary: SummaryLine) {
        let anchor = "file-\(index + 1)"
        var page = HTMLText()
        page.raw("<section id=\"\(anchor)\"><h2>")
        page.text(comparison.path)
        page.raw("</h2>\n")
        let names = comparison.outputs.map { FileComparison.label($0.variant, $0.mode, among: comparison.variants) }
        table(&page, CompareText.rows(comparison, options: options, decoder: decoder), pictures: comparison.pictures)
        warnings(&page, comparison, names: names)
        if let pictures = comparison.pictures { self.pictures(&page, comparison, pictures, names: names) }
        let tags = TagTable(source: comparison.source.tags, outputs: comparison.outputs.map(\.tags))
        tagTable(&page, tags, names: names, open: files <= foldedTablesAbove)
        page.raw("</section>\n")
        let dropped = comparison.outputs.indices.last.map { tags.dropped(by: $0).first { $0.0 == .location }?.1 ?? 0 } ?? 0
        let cells = ["\(comparison.source.width)×\(comparison.source.height)"]
            + comparison.outputs.flatMap { [EXIFText.bytes($0.bytes), CompareText.decibels($0.yPSNR)] } + [String(dropped)]
        return (page.markup, SummaryLine(anchor: anchor, file: comparison.path, cells: cells, failed: false))
    }

    static func failure(_ file: String, _ reason: String, index: Int) -> (html: String, summary: SummaryLine) {
        let anchor = "file-\(index + 1)"
        var page = HTMLText()
        page.raw("<section id=\"\(anchor)\"><h2>")
        page.text(file)
        page.raw("</h2>")
        page.element("p", "error: " + reason, class: "error")
        page.raw("</section>\n")
        return (page.markup, SummaryLine(anchor: anchor, file: file, cells: [reason], failed: true))
    }

    /// The summary table, then the script; `columns` names the outputs.
    static func tail(_ lines: [SummaryLine], columns: [String]) -> String {
        var page = HTMLText()
        page.raw("<h2 id=\"summary\">Summary</h2><table><tr><th>file</th><th>size</th>")
        for name in columns {
            page.raw("<th>")
            page.text(name + " bytes")
            page.raw("</th><th>")
            page.text(name + " Y-PSNR")
            page.raw("</th>")
        }
        page.raw("<th>location tags dropped</th></tr>\n")
        for line in lines {
            page.raw("<tr><td><a href=\"#\(line.anchor)\">")
            page.text(line.file)
            page.raw("</a></td>")
            if line.failed {
                page.raw("<td class=\"error\" colspan=\"\(2 * columns.count + 2)\">")
                page.text("error: " + (line.cells.first ?? ""))
                page.raw("</td>")
            } else {
                for cell in line.cells {
                    page.raw("<td class=\"n\">")
                    page.text(cell)
                    page.raw("</td>")
                }
            }
            page.raw("</tr>\n")
        }
        page.raw("</table>\n<script>\(ComparePageScript.script)</script>\n</body></html>\n")
        return page.markup
    }

    /// The text table's rows, then the pictures' mean and largest |ΔY|.
    private static func table(_ page: inout HTMLText, _ rows: [[String]], pictures: ComparisonPictures?) {
        var rows = rows
        if let pictures {
            rows.append(["mean |ΔY|", ""] + pictures.outputs.map { RunSummary.format($0.meanDifference, digits: 2) })
            rows.append(["max |ΔY|", ""] + pictures.outputs.map { String($0.maxDifference) })
        }
        page.raw("<table class=\"stats\">")
        for (index, cells) in rows.enumerated() {
            page.raw("<tr>")
            for (column, cell) in cells.enumerated() {
                let tag = index == 0 || column == 0 ? "th" : "td"
                page.raw(column > 0 && index > 0 ? "<\(tag) class=\"n\">" : "<\(tag)>")
                page.text(cell.hasPrefix("  ") ? "· " + cell.dropFirst(2) : cell)
                page.raw("</\(tag)>")
            }
            page.raw("</tr>")
        }
        page.raw("</table>\n")
    }

    private static func warnings(_ page: inout HTMLText, _ comparison: FileComparison, names: [String]) {
        var lines: [String] = []
        if let problem = comparison.source.metadata.exifProblem { lines.append("source: EXIF unreadable: \(problem)") }
        for (output, name) in zip(comparison.outputs, names) {
            if let problem = output.metadata.exifProblem { lines.append("\(name): EXIF unreadable: \(problem)") }
            lines += output.result.warnings.map { "\(name): warning: \($0)" }
        }
        guard !lines.isEmpty else { return }
        page.raw("<ul>")
        for line in lines { page.element("li", line) }
        page.raw("</ul>\n")
    }

    private static func pictures(_ page: inout HTMLText, _ comparison: FileComparison, _ pictures: ComparisonPictures, names: [String]) {
        let source = comparison.source
        page.raw("<div class=\"pics\">")
        let first = pictures.outputs.first.map { ($0.cropRect, comparison.outputs[0]) }
        figure(&page, pictures.source, caption: "source, \(source.width)×\(source.height)",
               box: first.map { rect, output in
                   (Double(rect.x) / Double(output.width), Double(rect.y) / Double(output.height),
                    Double(rect.width) / Double(output.width), Double(rect.height) / Double(output.height))
               })
        for (index, made) in pictures.outputs.enumerated() {
            let output = comparison.outputs[index]
            figure(&page, made.preview, caption: "\(names[index]), \(output.width)×\(output.height)", box: nil)
        }
        page.raw("</div>\n")
        // One group per variant: its outputs share a size, hence one crop rectangle.
        for variant in comparison.variants {
            let members = comparison.outputs.indices.filter { comparison.outputs[$0].variant == variant }
            guard let lead = members.first else { continue }
            let rect = pictures.outputs[lead].cropRect
            let output = comparison.outputs[lead]
            page.raw("<h3>")
            page.text("Crops at 1:1, from (\(rect.x), \(rect.y)) of \(output.width)×\(output.height)"
                      + (comparison.variants.count > 1 ? ": q\(variant.quality)" + (variant.maxSize.map { " \($0)" } ?? "") : ""))
            page.raw("</h3><div class=\"zoom\" data-w=\"\(rect.width)\" data-h=\"\(rect.height)\">")
            page.raw("<label>zoom <input type=\"range\" min=\"1\" max=\"8\" step=\"0.25\" value=\"1\"></label>")
            crop(&page, pictures.outputs[lead].sourceCrop, rect, caption: "source")
            for index in members { crop(&page, pictures.outputs[index].crop, rect, caption: names[index]) }
            page.raw("</div><div class=\"pics\">")
            for index in members {
                let made = pictures.outputs[index]
                figure(&page, made.heatMap, caption: "|ΔY| of \(names[index]): mean \(RunSummary.format(made.meanDifference, digits: 2)), max \(made.maxDifference)",
                       box: nil)
            }
            page.raw(legend + "</div>\n")
        }
    }

    private static func figure(_ page: inout HTMLText, _ jpeg: [UInt8], caption: String, box: (Double, Double, Double, Double)?) {
        page.raw("<figure><div class=\"frame\"><img alt=\"\" src=\"data:image/jpeg;base64,\(Base64.encoded(jpeg))\">")
        if let (x, y, w, h) = box {
            func percent(_ value: Double) -> String { RunSummary.format(value * 100, digits: 2) + "%" }
            page.raw("<div class=\"box\" style=\"left:\(percent(x));top:\(percent(y));width:\(percent(w));height:\(percent(h))\"></div>")
        }
        page.raw("</div><figcaption>")
        page.text(caption)
        page.raw("</figcaption></figure>")
    }

    private static func crop(_ page: inout HTMLText, _ jpeg: [UInt8], _ rect: PictureRect, caption: String) {
        page.raw("<figure><div class=\"crop\" style=\"width:\(rect.width)px;height:\(rect.height)px\">"
                 + "<img alt=\"\" width=\"\(rect.width)\" height=\"\(rect.height)\" src=\"data:image/jpeg;base64,\(Base64.encoded(jpeg))\"></div><figcaption>")
        page.text(caption)
        page.raw("</figcaption></figure>")
    }

    /// The heat maps' colour scale, from `HeatRamp`'s own stops.
    static let legend: String = {
        let stops = HeatRamp.stops.enumerated().map { index, stop in
            "<stop offset=\"\(index * 100 / (HeatRamp.stops.count - 1))%\" stop-color=\"rgb(\(Int(stop.0)),\(Int(stop.1)),\(Int(stop.2)))\"/>"
        }.joined()
        let labels = (0..<HeatRamp.stops.count).map { index -> String in
            let t = Double(index) / Double(HeatRamp.stops.count - 1)
            let levels = Int((t * t * HeatRamp.fullScale).rounded())
            return "<text x=\"\(4 + index * 192 / (HeatRamp.stops.count - 1))\" y=\"34\" font-size=\"10\" text-anchor=\"middle\">\(levels)\(index == HeatRamp.stops.count - 1 ? "+" : "")</text>"
        }.joined()
        return "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"210\" height=\"40\" role=\"img\" aria-label=\"heat map scale\">"
            + "<defs><linearGradient id=\"heat\">\(stops)</linearGradient></defs><rect x=\"4\" y=\"4\" width=\"192\" height=\"18\" fill=\"url(#heat)\"/>"
            + labels + "</svg><figcaption>|ΔY|, 8-bit levels</figcaption></figure>"
    }()

    private static func tagTable(_ page: inout HTMLText, _ table: TagTable, names: [String], open: Bool) {
        page.raw(open ? "<details open>" : "<details>")
        page.raw("<summary>")
        page.text("Tags: \(table.rows.count) in all")
        page.raw("</summary>")
        for (index, name) in names.enumerated() {
            let dropped = table.dropped(by: index)
            guard !dropped.isEmpty else { continue }
            page.element("p", name + " drops " + dropped.map { "\($0.1) \($0.0.rawValue) tag" + ($0.1 == 1 ? "" : "s") }.joined(separator: ", ") + ".")
        }
        page.raw("<table class=\"tags\"><tr><th>tag</th><th>source</th>")
        for name in names {
            page.raw("<th>")
            page.text(name)
            page.raw("</th>")
        }
        page.raw("</tr>\n")
        for row in table.rows {
            page.raw("<tr><td>")
            page.text("\(row.tag.family) \(row.tag.family == "XMP" ? "" : row.tag.group + " ")\(row.tag.name)")
            if let category = row.tag.category {
                page.raw("<span class=\"cat \(category.rawValue.replacingSpaces)\">")
                page.text(category.rawValue)
                page.raw("</span>")
            }
            page.raw("</td>")
            cell(&page, row.source, fate: row.source == nil ? .absent : .same)
            for (value, fate) in row.outputs { cell(&page, value, fate: fate) }
            page.raw("</tr>\n")
        }
        page.raw("</table></details>\n")
    }

    private static func cell(_ page: inout HTMLText, _ value: String?, fate: TagTable.Fate) {
        page.raw(fate == .same ? "<td>" : "<td class=\"\(fate.rawValue)\">")
        switch fate {
        case .dropped: page.text("dropped")
        case .absent: page.text("—")
        default: page.text(value ?? "")
        }
        if fate == .changed || fate == .added { page.raw(" <small>(\(fate.rawValue))</small>") }
        page.raw("</td>")
    }
}

extension String {
    /// Spaces made hyphens, for a class name.
    var replacingSpaces: String { String(map { $0 == " " ? "-" : $0 }) }
}
