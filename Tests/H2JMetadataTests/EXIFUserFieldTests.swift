import H2JTestSupport
import Testing
@testable import H2JMetadata

@Suite("EXIF user fields as XMP text")
struct EXIFUserFieldTests {
    typealias Entry = EXIFTestTIFF.Entry

    func utf16(_ text: String, bigEndian: Bool) -> [UInt8] { EXIFTestTIFF.utf16(text, bigEndian: bigEndian) }

    @Test("UserComment character codes", arguments: [false, true])
    func userComment(bigEndian: Bool) {
        let unicode = Array("UNICODE\u{0}".utf8)
        let decode = { (bytes: [UInt8]) in EXIFTextDecoding.userComment(bytes, bigEndian: bigEndian) }
        #expect(decode(Array("ASCII\u{0}\u{0}\u{0}plain text\u{0}junk".utf8)) == "plain text")
        #expect(decode(Array("ASCII\u{0}\u{0}\u{0}".utf8) + [0x63, 0x61, 0x66, 0xE9]) == "café")  // not UTF-8: Latin-1
        #expect(decode(Array("ASCII\u{0}\u{0}\u{0}café".utf8)) == "café")  // UTF-8 in an ASCII comment
        #expect(decode(unicode + utf16("Zürich 😀", bigEndian: bigEndian) + [0, 0, 0x41, 0]) == "Zürich 😀")
        // A byte-order mark wins over the TIFF byte order.
        #expect(decode(unicode + [0xFF, 0xFE] + utf16("bom", bigEndian: false)) == "bom")
        #expect(decode(unicode + [0xFE, 0xFF] + utf16("bom", bigEndian: true)) == "bom")
        #expect(decode(unicode + utf16("odd", bigEndian: bigEndian) + [0x41]) == "odd")  // a stray last byte is ignored
        #expect(decode([UInt8](repeating: 0, count: 8) + Array("undefined but UTF-8".utf8)) == "undefined but UTF-8")
        #expect(decode(Array("JIS\u{0}\u{0}\u{0}\u{0}\u{0}".utf8) + [0x1B, 0x24, 0x42, 0xC6, 0xFC]) == nil)
        #expect(decode(Array("ASCII".utf8)) == nil)  // shorter than its code
    }

    @Test("ASCII fields, Copyright's two parts, trailing blanks")
    func asciiFields() {
        #expect(EXIFTextDecoding.text(Array("Ana\u{0}rest".utf8)) == "Ana")
        #expect(EXIFTextDecoding.text([0x41, 0xE9]) == "Aé")
        #expect(EXIFTextDecoding.copyright(Array("Ana\u{0}Editor Bo\u{0}".utf8)) == "Ana\nEditor Bo")
        #expect(EXIFTextDecoding.copyright(Array(" \u{0}Editor Bo\u{0}".utf8)) == "Editor Bo")
        #expect(EXIFTextDecoding.copyright(Array("Ana\u{0}\u{0}".utf8)) == "Ana")
        #expect(EXIFTextDecoding.copyright(Array("Ana".utf8)) == "Ana")
        #expect(EXIFTextDecoding.droppingTrailingBlanks("a b  \u{0} ") == "a b")
    }

    @Test("Each field maps to its XMP property; blank text carries nothing; wrong types stay")
    func properties() throws {
        var t = EXIFTestTIFF(bigEndian: true)
        t.ifd0 = [Entry(EXIFTag.imageDescription, .ascii("A lake")), Entry(EXIFTag.artist, .ascii("Ana")),
                  Entry(EXIFTag.copyright, .ascii("    ")), Entry(EXIFTag.make, .short([1]))]
        t.exif = [Entry(EXIFTag.userComment, .undefined(Array("UNICODE\u{0}".utf8) + utf16("hé", bigEndian: true)))]
        let dir = try EXIFDirectory(tiff: t.build().bytes)
        let carried = EXIFUserField.all.map { field in dir.entry(field.ifd, field.tag).flatMap { field.carried($0, in: dir) } }
        #expect(carried == [
            .property(XMPProperty(.exif, "UserComment", .languageAlternative("hé"))),
            .property(XMPProperty(.dc, "description", .languageAlternative("A lake"))),
            .property(XMPProperty(.dc, "creator", .orderedArray(["Ana"]))),
            .nothing,
        ])
        // A UserComment stored as ASCII (type 2) is not what EXIF defines: left alone.
        var odd = EXIFTestTIFF()
        odd.ifd0 = [Entry(EXIFTag.make, .ascii("X"))]
        odd.exif = [Entry(EXIFTag.userComment, .ascii("ASCII\u{0}\u{0}\u{0}text"))]
        let oddDir = try EXIFDirectory(tiff: odd.build().bytes)
        let field = EXIFUserField.all[0]
        #expect(field.carried(oddDir.entry(.exif, EXIFTag.userComment)!, in: oddDir) == nil)
    }
}
