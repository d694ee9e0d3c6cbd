import H2JColour
import H2JContainer
import H2JLibheif
import H2JSupport

/// The metadata each engine grafts: what the source holds, and, when it has no ICC
/// profile but an nclx `colr`, the profile `ICCFromNCLX` builds for it.
extension SourceMetadata {
    /// From libheif's handle (the libheif engine); `structure` supplies the nclx.
    init(handle: LibheifHandle, structure: HEIFStructure, primary: UInt32) {
        self.init(exif: handle.metadata(type: "Exif").first,
                  xmp: handle.metadata(type: "mime", contentType: Self.xmpContentType).first,
                  icc: handle.iccProfile() ?? Self.nclx(structure, primary).flatMap(ICCFromNCLX.profile(for:)))
    }

    /// From our own container reader (the tile engine); reads only the items it needs.
    init(structure: HEIFStructure, primary: UInt32, source: ByteSource) throws(HEIFError) {
        try self.init(storedIn: structure, primary: primary, source: source)
        icc = icc ?? Self.nclx(structure, primary).flatMap(ICCFromNCLX.profile(for:))
    }
}
