/// The mark heic2jpg writes into every output (unless `--no-mark`), so that its own
/// outputs can be told from others and traced back to their exact source.
///
/// Written as XMP properties in the `h2j` namespace (`XMPNamespace.h2j`,
/// `http://ns.heic2jpg.dev/provenance/1.0/`), in attribute form on their own
/// `rdf:Description`:
///
/// | property | value |
/// |---|---|
/// | `h2j:sourceName` | the source's file name (last path component); not in strip mode |
/// | `h2j:sourceSHA256` | SHA-256 of the source file's bytes, 64 lowercase hex digits |
/// | `h2j:mode` | `lossless-metadata` (`--metadata keep`) or `lossy` (`--metadata strip`): `MetadataMode.markValue` |
/// | `h2j:quality` | the JPEG quality, 1–100 |
/// | `h2j:version` | heic2jpg's version |
///
/// In strip mode, the private one, the mark names no file: the digest still ties the
/// output to its source (`inspect --source`, and a rerun's recognition of its own outputs).
/// In keep mode the EXIF also gets `ImageUniqueID` (`imageUniqueID`) when the source has
/// none, so EXIF-only readers can recognise the output too.
package struct ProvenanceMark: Sendable, Equatable {
    /// The source's file name; nil in a strip-mode mark.
    package var sourceName: String?
    /// Lowercase hex SHA-256 of the source file.
    package var sourceSHA256: String
    package var mode: MetadataMode
    package var quality: Int
    package var version: String

    package init(sourceName: String?, sourceSHA256: String, mode: MetadataMode, quality: Int, version: String) {
        self.sourceName = sourceName
        self.sourceSHA256 = sourceSHA256
        self.mode = mode
        self.quality = quality
        self.version = version
    }

    /// The properties `XMPForJPEG` writes.
    package var xmpProperties: [XMPProperty] {
        (sourceName.map { [XMPProperty(.h2j, "sourceName", .text($0))] } ?? []) + [
            XMPProperty(.h2j, "sourceSHA256", .text(sourceSHA256)),
            XMPProperty(.h2j, "mode", .text(mode.markValue)),
            XMPProperty(.h2j, "quality", .text(String(quality))),
            XMPProperty(.h2j, "version", .text(version)),
        ]
    }

    /// EXIF `ImageUniqueID` (0xA420): 32 hex digits, the first 128 bits of the source
    /// digest, as EXIF 2.32 §4.6.5 prescribes (ASCII, count 33 with the NUL).
    package var imageUniqueID: String { String(sourceSHA256.prefix(32)).uppercased() }
}
