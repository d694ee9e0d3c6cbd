import H2JJob

/// The shaping options every output of a `compare` run shares, as rows of the text table
/// and fields of the JSON: only those that differ from convert's defaults, so a plain
/// comparison shows none.
enum CompareOptionColumns {
    static func shared(_ options: ConversionOptions) -> [(name: String, value: String)] {
        let defaults = ConversionOptions()
        var columns: [(String, String)] = []
        if options.colorspace != defaults.colorspace { columns.append(("colorspace", options.colorspace.rawValue)) }
        if options.sampling != defaults.sampling { columns.append(("sampling", options.sampling.rawValue)) }
        if options.progressive { columns.append(("progressive", "yes")) }
        if options.optimize { columns.append(("optimize", "yes")) }
        if options.thumbnail { columns.append(("thumbnail", "yes")) }
        return columns
    }
}
