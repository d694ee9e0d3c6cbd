import Testing
@testable import H2JOutputPlan

@Suite("--name templates: parsing, expansion, and how other images are named")
struct NameTemplateTests {
    func parse(_ text: String) -> Result<NameTemplate, NameTemplateError> {
        Result { () throws(NameTemplateError) in try NameTemplate(text) }
    }

    @Test("Each placeholder expands from the source's file name; {ext} has no dot")
    func expansion() throws {
        #expect(NameTemplate.standard.expand("IMG_1234.HEIC") == "IMG_1234")
        #expect(try NameTemplate("{name}").expand("IMG_1234.HEIC") == "IMG_1234.HEIC")
        #expect(try NameTemplate("{stem}-{ext}").expand("IMG_1234.HEIC") == "IMG_1234-HEIC")
        #expect(try NameTemplate("{stem}_{n}").expand("IMG_1234.HEIC") == "IMG_1234_1")
        #expect(try NameTemplate("small {stem}").expand("a.b.heic") == "small a.b")
        #expect(try NameTemplate("{stem}.{ext}").expand("noext") == "noext.", "no extension: {ext} is empty")
        #expect(try NameTemplate("{stem}").expand(".hidden") == ".hidden", "a leading dot is not an extension")
        #expect(try NameTemplate("{stem}") == .standard, "the default spelled out is the default")
    }

    @Test("Only {n} makes numbered names, at every {n}")
    func numbered() throws {
        #expect(NameTemplate.standard.numberedNames("a.heic") == nil)
        let names = try #require(try NameTemplate("{n}-{stem}-{n}").numberedNames("a.heic"))
        #expect(names.parts == ["", "-a-", ""])
        #expect(names.name(of: 1) == "1-a-1" && names.name(of: 12) == "12-a-12")
    }

    @Test("Which templates name each source apart")
    func namesSource() throws {
        #expect(try NameTemplate("{stem}").namesSource && NameTemplate("x{name}").namesSource)
        #expect(try !NameTemplate("{ext}").namesSource && !NameTemplate("photo_{n}").namesSource)
    }

    @Test("Unsafe and malformed templates are refused, naming why")
    func refused() {
        #expect(parse("") == .failure(.unsafe("it is empty")))
        #expect(parse("a/{stem}") == .failure(.unsafe("a file name cannot hold '/'")))
        #expect(parse("{stem}\0") == .failure(.unsafe("a file name cannot hold 'NUL'")))
        #expect(parse("-{stem}") == .failure(.unsafe("a name starting with '-' reads as an option")))
        #expect(parse(".{stem}") == .failure(.unsafe("a name starting with '.' is hidden")))
        #expect(parse("..") == .failure(.unsafe("a name starting with '.' is hidden")))
        #expect(parse("{date}") == .failure(.unknownPlaceholder("date")))
        #expect(parse("{}") == .failure(.unknownPlaceholder("")))
        #expect(parse("{stem") == .failure(.unbalanced("'{' without '}'")))
        #expect(parse("stem}") == .failure(.unbalanced("'}' without '{'")))
        #expect(parse("{st{em}") == .failure(.unbalanced("'{' inside '{…}'")))
        #expect(parse(String(repeating: "x", count: 256)) == .failure(.unsafe("it is longer than a file name may be (255 bytes)")))
        #expect((try? NameTemplate("{stem}..{n}")) != nil, "dots inside a name are harmless")
        #expect(NameTemplateError.unknownPlaceholder("date").description == "unknown placeholder '{date}' (expected {stem}, {name}, {ext} or {n})")
    }

    @Test("Other images: without {n} a suffix follows the name; with it each image has its own")
    func otherImages() throws {
        let planned = "out/IMG.HEIC.jpg"
        #expect(OutputName.image(2).path(besides: planned) == "out/IMG.HEIC-2.jpg")
        #expect(OutputName(checking: ".depth")!.path(besides: planned) == "out/IMG.HEIC.depth.jpg")
        let names = try #require(try NameTemplate("{stem}_{n}").numberedNames("IMG.HEIC"))
        let numbered = "out/IMG_1.jpg"
        #expect(OutputName.primary.path(besides: numbered, numbered: names) == numbered)
        #expect(OutputName.image(2).path(besides: numbered, numbered: names) == "out/IMG_2.jpg")
        #expect(OutputName(checking: "-3-left")!.path(besides: numbered, numbered: names) == "out/IMG_3-left.jpg")
        #expect(OutputName(checking: "-2.matte-2")!.path(besides: numbered, numbered: names) == "out/IMG_2.matte-2.jpg")
        #expect(OutputName(checking: "-right")!.path(besides: numbered, numbered: names) == "out/IMG_1-right.jpg", "the primary's own")
        #expect(OutputName(checking: ".depth")!.path(besides: numbered, numbered: names) == "out/IMG_1.depth.jpg")
        #expect(OutputName(checking: "-2x")!.path(besides: numbered, numbered: names) == "out/IMG_1-2x.jpg", "not an image number")
        #expect(OutputName.image(2).path(besides: "a.JPEG", numbered: names) == "IMG_2.JPEG", "the planned extension is kept")
    }
}
