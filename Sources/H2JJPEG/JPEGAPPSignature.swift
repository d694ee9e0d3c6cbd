/// The signatures that open the APP segment payloads heic2jpg reads and writes: the one
/// spelling of each, for the writers (metadata), the segment walk and the tests.
package enum JPEGAPPSignature {
    /// APP1 EXIF (CIPA DC-008 §4.7.2): `Exif\0\0`, then the TIFF bytes.
    package static let exif = Array("Exif\0\0".utf8)
    /// APP1 standard XMP (XMP Part 3 §1.1.3): the namespace and a NUL, then the packet.
    package static let xmp = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// APP1 Extended XMP (XMP Part 3 §1.1.3.1): the namespace and a NUL (35 bytes), then
    /// the GUID, the lengths and a chunk.
    package static let extendedXMP = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    /// APP2 ICC profile chunks (ICC.1 Annex B.4): `ICC_PROFILE\0`, then sequence number,
    /// count and chunk.
    package static let icc = Array("ICC_PROFILE\0".utf8)
    /// APP2 ISO 21496-1 gain-map metadata: the URN and a NUL, then the version fields
    /// (the primary of a gain-map JPEG) or the whole metadata (its gain map).
    package static let iso21496 = Array("urn:iso:std:iso:ts:21496:-1\0".utf8)
    /// The largest payload of one segment: 65,535 less the 2-byte length field.
    package static let maxPayloadBytes = 65_533
}
