import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import H2JTestSupport
import Testing
@testable import H2JContainer
@testable import H2JConvert
@testable import H2JJPEG
@testable import H2JMetadata
@testable import H2JSupport

/// Checks of XMP packets by independent readers: Foundation's XML parser (libxml2) for
/// well-formedness and namespace binding, exiftool for what a photo tool reads.
enum XMPTestSupport {
    /// nil when `bytes` parse as namespace-well-formed XML; otherwise the parser's error.
    static func xmlError(_ bytes: [UInt8]) -> String? {
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        let parsed = parser.parse()
        // Unbound prefixes do not fail `parse`, but set `parserError` (code 201).
        guard parsed, parser.parserError == nil else { return "\(parser.parserError.map { "\($0)" } ?? "parse failed")" }
        return nil
    }

    /// exiftool's reading of XMP bytes (a standalone packet, written to a `.xmp` file):
    /// `-j -G1 -XMP:all`, keys like "XMP-h2j:SourceName".
    static func exiftool(packet: [UInt8]) throws -> [String: String] {
        let directory = TemporaryDirectory()
        return try exiftool(file: directory.file("packet.xmp", packet))
    }

    /// exiftool's reading of the XMP in a file, values as strings (list items joined by `|`).
    static func exiftool(file: String, _ extra: [String] = []) throws -> [String: String] {
        let output = try ExifTool.output(["-j", "-G1", "-sep", "|", "-XMP:all"] + extra + [file])
        let json = try JSONSerialization.jsonObject(with: Data(output)) as? [[String: Any]]
        var tags: [String: String] = [:]
        for (key, value) in json?.first ?? [:] { tags[key] = "\(value)" }
        return tags
    }

    /// The packet in a standard APP1 payload.
    static func packet(_ payload: [UInt8]?) -> [UInt8] {
        Array((payload ?? []).dropFirst(JPEGAPPSignature.xmp.count))
    }

    static func text(_ payload: [UInt8]?) -> String {
        String(decoding: packet(payload), as: UTF8.self)
    }

    static func count(of needle: String, in haystack: String) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }

    /// A provenance mark for tests.
    static func mark(_ name: String = "IMG_0001.HEIC", quality: Int = 90) -> [XMPProperty] {
        ProvenanceMark(sourceName: name, sourceSHA256: String(repeating: "ab", count: 32), mode: .keep,
                       quality: quality, version: "test").xmpProperties
    }

    /// `../shared/corpus` beside the package root, when present.
    static let corpus: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    /// The XMP packet of a HEIF file's primary image, as the tile engine reads it.
    static func sourceXMP(_ path: String) throws -> [UInt8]? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let source = MemoryByteSource(bytes)
        let structure = try HEIFStructure.read(from: source)
        let primary = try structure.primaryImage()
        return try SourceMetadata(storedIn: structure, primary: primary.id, source: source).xmp
    }

    /// A minimal HEIF whose primary item (1) is described by an XMP `mime` item holding
    /// `packet`: enough for `SourceMetadata` to read it.
    static func heif(xmp packet: [UInt8]) -> [UInt8] {
        typealias B = BoxBuilder
        let meta = B.meta(primary: 1, items: [(1, "hvc1")], references: [B.reference("cdsc", from: 2, to: [1])],
                          extraItems: [B.infe(id: 2, type: "mime", contentType: "application/rdf+xml")],
                          extraBoxes: [B.iloc([B.Location(id: 2, construction: 1, extents: [(0, 0, UInt64(packet.count))])]),
                                       B.idat(packet)])
        return B.ftyp + meta
    }

    /// The Extended XMP payloads put back together, checked field by field against the
    /// segment format (header, one GUID, one full length, contiguous offsets).
    static func reassemble(_ payloads: [[UInt8]]) -> (guid: String, packet: [UInt8])? {
        var packet: [UInt8] = []
        var guid: String?
        var fullLength: Int?
        for payload in payloads {
            let reader = ByteReader(payload)
            guard payload.starts(with: JPEGAPPSignature.extendedXMP), payload.count <= 65_533,
                  let length = reader.u32(67), let offset = reader.u32(71) else { return nil }
            let id = String(decoding: payload[35..<67], as: UTF8.self)
            guard guid == nil || guid == id, fullLength == nil || fullLength == Int(length), Int(offset) == packet.count else { return nil }
            guid = id
            fullLength = Int(length)
            #expect(payload.count - 75 <= ExtendedXMP.maxChunkBytes)
            packet += payload[75...]
        }
        guard let guid, packet.count == fullLength else { return nil }
        return (guid, packet)
    }
}
