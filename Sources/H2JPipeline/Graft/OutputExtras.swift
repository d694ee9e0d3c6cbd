#if canImport(Glibc)
import Glibc
#endif
import H2JContainer
import H2JMetadata
import H2JSupport

/// What an output gets from its source besides pixels and the grafted EXIF/XMP/ICC,
/// decided once per file before either engine runs: the provenance mark and the vendor
/// trailers; and what is left behind, as warnings.
struct OutputExtras {
    /// nil with `--no-mark`.
    let mark: ProvenanceMark?
    let trailers: VendorTrailers
    /// Source metadata that no part of the output carries (keep mode), named for the report.
    let warnings: [String]

    init(job: Job, structure: HEIFStructure, primary: UInt32, source: ByteSource, options: ConversionOptions) throws {
        trailers = try VendorTrailers(structure: structure, source: source, mode: options.metadata)
        warnings = trailers.warnings
            + (options.metadata == .keep ? AuxiliaryMetadata.warnings(structure, primary: primary) : [])
        guard options.mark else {
            mark = nil
            return
        }
        let name: String = switch job.source {
        case .path(let path): String(path.split(separator: "/").last ?? Substring(path))
        case .standardStream: "-"
        }
        mark = ProvenanceMark(sourceName: name, sourceSHA256: try SourceDigest.hex(of: source), mode: options.metadata,
                              quality: options.quality, version: Version.current)
    }

    /// Appends the vendor trailer, if any, after the JPEG's EOI; `path` names the output.
    func writeTrailer(to fd: Int32, path: String) throws(WriteError) {
        if let trailer = trailers.jpegTrailer { try POSIX.writeAll(trailer, to: fd, path: path) }
    }
}
