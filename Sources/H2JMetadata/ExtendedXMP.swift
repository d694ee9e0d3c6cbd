import H2JJPEG
import H2JSupport

/// Extended XMP in JPEG (XMP Specification Part 3, §1.1.3.1): the part of the XMP that
/// does not fit the standard packet's APP1, as a separate serialized `<x:xmpmeta>`, cut
/// into APP1 segments.
///
/// Each segment's payload is the header `http://ns.adobe.com/xmp/extension/\0`, the GUID
/// (32 ASCII hex digits, uppercase: the MD5 digest of the whole extended packet, which
/// the standard packet names in `xmpNote:HasExtendedXMP`), the full length of the
/// extended packet and this chunk's offset in it (both UInt32 big-endian), then the chunk.
enum ExtendedXMP {
    /// Largest chunk: one APP1 payload (65,533 bytes) less the header, GUID and two lengths.
    static let maxChunkBytes = JPEGAPPSignature.maxPayloadBytes - JPEGAPPSignature.extendedXMP.count - 32 - 8

    /// The GUID of `packet`: its MD5 digest as 32 uppercase hex digits.
    static func guid(of packet: [UInt8]) -> String {
        MD5.hexDigest(packet, uppercase: true)
    }

    /// The APP1 payloads carrying `packet`, in offset order; nil when the packet is too
    /// long for its length field (4 GB).
    static func payloads(packet: [UInt8], guid: String) -> [[UInt8]]? {
        guard let fullLength = UInt32(exactly: packet.count) else { return nil }
        let prefix = JPEGAPPSignature.extendedXMP + Array(guid.utf8) + bigEndian(fullLength)
        return stride(from: 0, to: packet.count, by: maxChunkBytes).map { offset in
            prefix + bigEndian(UInt32(truncatingIfNeeded: offset)) + packet[offset..<min(offset + maxChunkBytes, packet.count)]
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}
