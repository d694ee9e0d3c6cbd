import H2JJPEG
import H2JMetadata
import H2JOutputPlan
import H2JSupport

extension ConversionOptions {
    /// Every stored field, once, in the fingerprint's order (states written by earlier
    /// versions must keep matching): how the wire carries it, how the fingerprint states
    /// it, or why it does not. `ConversionOptionsCoverageTests` checks this list against
    /// the declaration.
    package static let fields: [OptionField] = [
        .choice("metadata", "metadata", \.metadata),
        .int("quality", "quality", \.quality, in: 1...100),
        .bool("stripGPS", "strip-gps", \.stripGPS),
        .bool("mark", "mark", \.mark),
        .field("background", "background", \.background,
               encode: { out, colour in [colour.red, colour.green, colour.blue].forEach { out.u8($0) } },
               decode: { (r: inout WireReader) throws(WireError) in RGBColor(red: try r.u8(), green: try r.u8(), blue: try r.u8()) },
               text: { $0.description }, vary: { RGBColor(red: $0.red ^ 1, green: $0.green, blue: $0.blue) }),
        .int("maxPixels", "max-pixels", \.maxPixels, in: 1...(maxMegapixels * 1_000_000)),
        .choice("images", "images", \.images),
        .choice("stereo", "stereo", \.stereo),
        .choice("hdr", "hdr", \.hdr),
        .field("auxiliaries", "aux", \.auxiliaries,
               encode: { out, kinds in
                   out.int(kinds.count)
                   AuxiliaryOutput.allCases.filter(kinds.contains).forEach { out.string($0.rawValue) }
               },
               decode: { (r: inout WireReader) throws(WireError) in
                   let count = try r.int()
                   guard (0...AuxiliaryOutput.allCases.count).contains(count) else { throw WireError(reason: "\(count) auxiliary kinds") }
                   return Set(try (0..<count).map { _ throws(WireError) in try r.value(AuxiliaryOutput.self) })
               },
               text: { kinds in AuxiliaryOutput.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ",") },
               vary: { $0.isEmpty ? Set(AuxiliaryOutput.allCases) : [] }),
        // The export options (#22): stated only when not the default.
        .field("maxSize", "max-size", \.maxSize, fingerprint: .unlessDefault,
               encode: { out, box in out.optional(box) { $0.string($1.description) } },
               decode: { (r: inout WireReader) throws(WireError) -> OutputBox? in
                   guard let text = try r.optional({ (r: inout WireReader) throws(WireError) in try r.string() }) else { return nil }
                   guard let box = OutputBox(text) else { throw WireError(reason: "max size \(text)") }
                   return box
               },
               text: { $0?.description ?? "none" }, vary: { $0 == nil ? OutputBox(width: 1024, height: 768) : nil }),
        .bool("thumbnail", "thumbnail", \.thumbnail, fingerprint: .unlessDefault),
        .choice("colorspace", "colorspace", \.colorspace, fingerprint: .unlessDefault),
        .bool("progressive", "progressive", \.progressive, fingerprint: .unlessDefault),
        .bool("optimize", "optimize", \.optimize, fingerprint: .unlessDefault),
        .choice("sampling", "sampling", \.sampling, fingerprint: .unlessDefault),
        // Sent, but never in the fingerprint.
        .bool("auxiliariesChosen", "aux-chosen", \.auxiliariesChosen,
              fingerprint: .never("whether unwritten auxiliary images are named as asked or as not carried")),
        .field("decodingThreads", "threads", \.decodingThreads, fingerprint: .never("the same pixels with any number of lanes"),
               encode: { $0.int($1) },
               decode: { (r: inout WireReader) throws(WireError) in max(1, min(try r.int(), 256)) },
               text: { String($0) }, vary: { $0 == 1 ? 2 : 1 }),
        // The parent's own: never sent, never in the fingerprint.
        .bool("overwrite", "overwrite", \.overwrite, fingerprint: .never("replaces our own outputs; what they hold is the same"),
              parentOnly: "the parent's planner and publisher decide what is replaced"),
        .choice("onConflict", "on-conflict", \.onConflict,
                fingerprint: .never("where an output goes when a foreign file is there, not what it holds"),
                parentOnly: "the parent's publisher moves an output to a free name"),
        .bool("dryRun", "dry-run", \.dryRun, fingerprint: .never("writes nothing"), parentOnly: "a dry run starts no conversion"),
        .field("maxMemory", "max-memory", \.maxMemory,
               fingerprint: .never("decides whether a file fails, never what an output holds"),
               parentOnly: "the worker sets it from its own limits",
               encode: { _, _ in }, decode: { (_: inout WireReader) throws(WireError) in nil },
               text: { $0.map(String.init) ?? "none" }, vary: { $0 == nil ? 1 << 30 : nil }),
    ]

    /// The settings that shape an output, as the state database records them: a source
    /// converted with other settings is converted again.
    package var fingerprint: String {
        Self.fields.compactMap { field -> String? in
            switch field.fingerprint {
            case .always: "\(field.key)=\(field.text(self))"
            case .unlessDefault: field.isDefault(in: self) ? nil : "\(field.key)=\(field.text(self))"
            case .never: nil
            }
        }.joined(separator: ";")
    }

    /// Writes the fields a worker is sent, in `fields`' order.
    package func encode(to out: inout WireWriter) {
        for field in Self.fields where field.parentOnly == nil { field.write(&out, self) }
    }

    /// Reads what `encode` wrote; the parent's own fields keep their defaults.
    package init(from reader: inout WireReader) throws(WireError) {
        self.init()
        for field in Self.fields where field.parentOnly == nil { try field.read(&reader, &self) }
    }
}
