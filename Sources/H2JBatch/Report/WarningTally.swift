import H2JJob
import H2JSupport

/// Warnings of one kind, summed over a run: a run of 40 iPhone photos with the same
/// auxiliary-image warning prints one line at the end, not 40, e.g.
///
///     warning: 40 files: auxiliary-metadata-not-carried, first IMG_0001.HEIC: XMP of the … (-v prints each)
///
/// Kinds are the warning codes (`Warning.Code`), in the order first seen, each with its
/// first file and message. Memory is one entry per kind, whatever the file count.
struct WarningTally {
    private struct Kind {
        var files = 0
        let firstSource: String
        let firstMessage: String
    }

    private var kinds: [Warning.Code: Kind] = [:]
    private var order: [Warning.Code] = []

    /// Counts each kind of warning in `result` once for its file.
    mutating func add(_ result: ConversionResult) {
        var counted: Set<Warning.Code> = []
        for warning in result.warnings where counted.insert(warning.code).inserted {
            if kinds[warning.code] == nil {
                kinds[warning.code] = Kind(firstSource: result.source, firstMessage: warning.message)
                order.append(warning.code)
            }
            kinds[warning.code]?.files += 1
        }
    }

    /// One line per kind, in the order first seen.
    var lines: [String] {
        order.compactMap { code in
            kinds[code].map { kind in
                let files = kind.files == 1 ? "1 file" : "\(kind.files) files"
                let first = kind.files == 1 ? "" : "first "
                return "warning: \(files): \(code.rawValue), \(first)\(kind.firstSource): \(kind.firstMessage)"
                    + (kind.files == 1 ? "" : " (-v prints each)")
            }
        }
    }
}
